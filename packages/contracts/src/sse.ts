// Without zod, so the widget's chat reads its answer stream without carrying the schema library.
/**
 * One server-sent event: its name ('message' when unnamed), its data lines joined with newlines, and the last event
 * id the stream set (kept from event to event, as EventSource keeps it; null before any): what a client sends back
 * as Last-Event-ID to resume.
 */
export interface SseEvent {
  event: string;
  data: string;
  id: string | null;
}

const LINE_END = /\r\n|\r|\n/;

/**
 * An incremental text/event-stream reader: `push` takes decoded text however the network split it (inside a line,
 * between CR and LF, mid-event) and calls `onEvent` for each complete event, as the EventSource algorithm does.
 * An event the stream ends in the middle of is dropped, as that algorithm requires.
 */
export function createSseParser(onEvent: (event: SseEvent) => void) {
  let buffer = '';
  let name = '';
  let data: string[] = [];
  let lastId: string | null = null;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0)
        onEvent({ event: name === '' ? 'message' : name, data: data.join('\n'), id: lastId });
      name = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const raw = colon === -1 ? '' : text.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
    // An id with a NUL in it is ignored, as EventSource ignores it.
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  };

  return {
    push(chunk: string) {
      buffer += chunk;
      for (;;) {
        const match = LINE_END.exec(buffer);
        // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next one.
        if (match === null || (match[0] === '\r' && match.index === buffer.length - 1)) return;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
    end() {
      if (buffer.endsWith('\r')) line(buffer.slice(0, -1));
      buffer = '';
      name = '';
      data = [];
    },
  };
}
