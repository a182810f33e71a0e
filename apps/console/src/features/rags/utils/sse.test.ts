import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse';

const parse = (pieces: string[], end = true) => {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const piece of pieces) parser.push(piece);
  if (end) parser.end();
  return events;
};

describe('createSseParser', () => {
  it('reads named events with their data, split across pieces anywhere', () => {
    const text =
      'event: delta\ndata: {"text":"Hel"}\n\nevent: reset\ndata: {}\n\nevent: delta\ndata: {"text":"lo"}\n\n';
    const pieces = text.match(/.{1,7}/gs) ?? [];
    expect(parse(pieces)).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'reset', data: '{}' },
      { event: 'delta', data: '{"text":"lo"}' },
    ]);
  });

  it('joins data lines, skips comments, accepts CRLF and names an unnamed event "message"', () => {
    expect(parse([': keep-alive\r\n\r\ndata: one\r\ndata: two\r\n\r\n'])).toEqual([
      { event: 'message', data: 'one\ntwo' },
    ]);
  });

  it('holds back an unfinished event until the stream ends', () => {
    expect(parse(['event: sources\ndata: {"id":"a"}'], false)).toEqual([]);
    expect(parse(['event: sources\ndata: {"id":"a"}'])).toEqual([{ event: 'sources', data: '{"id":"a"}' }]);
  });
});
