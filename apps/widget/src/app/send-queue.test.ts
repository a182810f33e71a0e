import { describe, expect, it } from 'vitest';
import { createSendQueue } from './send-queue';

/** A task that records when it starts and ends, and ends only when `finish` is called. */
function task(name: string, log: string[]) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      log.push(`${name} start`);
      await done;
      log.push(`${name} end`);
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createSendQueue', () => {
  it('starts a task only once the one before it has finished, in the order given', async () => {
    const log: string[] = [];
    const enqueue = createSendQueue();
    const [a, b, c] = [task('a', log), task('b', log), task('c', log)];
    enqueue(a.run);
    enqueue(b.run);
    enqueue(c.run);
    await tick();
    expect(log).toEqual(['a start']);
    a.finish();
    await tick();
    expect(log).toEqual(['a start', 'a end', 'b start']);
    // A later task finishing first changes nothing: it has not started.
    c.finish();
    await tick();
    expect(log).toEqual(['a start', 'a end', 'b start']);
    b.finish();
    await tick();
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('runs a task given after the queue emptied', async () => {
    const log: string[] = [];
    const enqueue = createSendQueue();
    const first = task('first', log);
    enqueue(first.run);
    first.finish();
    await tick();
    const second = task('second', log);
    enqueue(second.run);
    second.finish();
    await tick();
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  it('keeps separate queues apart', async () => {
    const log: string[] = [];
    const a = task('a', log);
    const b = task('b', log);
    createSendQueue()(a.run);
    createSendQueue()(b.run);
    await tick();
    expect(log).toEqual(['a start', 'b start']);
  });
});
