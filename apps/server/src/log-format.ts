import pretty from 'pino-pretty';
import type { Env } from './env';

export type LogFormat = 'json' | 'pretty';

/** 'auto' reads like prose on an interactive terminal and stays JSON for pipes, files and log collectors. */
export function chooseLogFormat(setting: Env['LOG_FORMAT'], isTTY: boolean | undefined): LogFormat {
  if (setting !== 'auto') return setting;
  return isTTY === true ? 'pretty' : 'json';
}

/** A stream that turns the server's JSON log lines into one readable line each (time, level, message). */
export function prettyLogStream(destination: NodeJS.WritableStream, colorize: boolean) {
  return pretty({
    destination,
    colorize,
    sync: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
}
