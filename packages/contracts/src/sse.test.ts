import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse';

const STREAM =
  ': keep-alive comment\r\n' +
  'event: conversation\r\ndata: {"conversationToken":"t","visitorMessage":{"id":"1","text":"hi"}}\r\n\r\n' +
  'event: delta\ndata: {"text":"Hel"}\n\n' +
  'event: delta\rdata: {"text":"lo\\nthere"}\r\r' +
  'event: reply\ndata: {"a":\ndata: 1}\nid: 7\nretry: 10\n\n' +
  'data: unnamed\n\n';

const EXPECTED: SseEvent[] = [
  {
    event: 'conversation',
    data: '{"conversationToken":"t","visitorMessage":{"id":"1","text":"hi"}}',
    id: null,
  },
  { event: 'delta', data: '{"text":"Hel"}', id: null },
  { event: 'delta', data: '{"text":"lo\\nthere"}', id: null },
  { event: 'reply', data: '{"a":\n1}', id: '7' },
  // The last id set stays the stream's until another replaces it.
  { event: 'message', data: 'unnamed', id: '7' },
];

function parse(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

describe('the SSE parser', () => {
  it('reads LF, CR and CRLF line ends, comments, multi-line data and unnamed events', () => {
    expect(parse([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events however the stream is cut in two', () => {
    for (let cut = 0; cut <= STREAM.length; cut += 1)
      expect(parse([STREAM.slice(0, cut), STREAM.slice(cut)]), `cut at ${String(cut)}`).toEqual(EXPECTED);
  });

  it('gives the same events when every character arrives alone', () => {
    expect(parse([...STREAM])).toEqual(EXPECTED);
  });

  it('does not split a CRLF that arrives in two chunks into two line ends', () => {
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([
      { event: 'message', data: 'a\nb', id: null },
    ]);
  });

  it('drops an event the stream ends in the middle of', () => {
    expect(parse(['event: delta\ndata: {"text":"x"}\n\nevent: reply\ndata: {"half"'])).toEqual([
      { event: 'delta', data: '{"text":"x"}', id: null },
    ]);
  });

  it('dispatches nothing for an event without data', () => {
    expect(parse(['event: reset\n\n'])).toEqual([]);
    expect(parse(['event: reset\ndata: {}\n\n'])).toEqual([{ event: 'reset', data: '{}', id: null }]);
  });

  it('keeps the last event id from event to event, ignoring one with a NUL', () => {
    expect(parse(['id: 3\ndata: a\n\ndata: b\n\nid: 4\0\ndata: c\n\nid: 5\ndata: d\n\n'])).toEqual([
      { event: 'message', data: 'a', id: '3' },
      { event: 'message', data: 'b', id: '3' },
      { event: 'message', data: 'c', id: '3' },
      { event: 'message', data: 'd', id: '5' },
    ]);
  });
});
