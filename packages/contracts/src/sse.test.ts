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
  { event: 'conversation', data: '{"conversationToken":"t","visitorMessage":{"id":"1","text":"hi"}}' },
  { event: 'delta', data: '{"text":"Hel"}' },
  { event: 'delta', data: '{"text":"lo\\nthere"}' },
  { event: 'reply', data: '{"a":\n1}' },
  { event: 'message', data: 'unnamed' },
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
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('drops an event the stream ends in the middle of', () => {
    expect(parse(['event: delta\ndata: {"text":"x"}\n\nevent: reply\ndata: {"half"'])).toEqual([
      { event: 'delta', data: '{"text":"x"}' },
    ]);
  });

  it('dispatches nothing for an event without data', () => {
    expect(parse(['event: reset\n\n'])).toEqual([]);
    expect(parse(['event: reset\ndata: {}\n\n'])).toEqual([{ event: 'reset', data: '{}' }]);
  });
});
