/** One Server-Sent Event: its `event:` name (`message` when absent) and its `data:` lines joined by newlines. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Turns the text of an event stream, fed in pieces of any size, into whole events. An event ends at a blank
 * line; lines starting with ":" are comments; CRLF and LF line ends are both accepted.
 */
export function createSseParser(onEvent: (event: SseEvent) => void) {
  let buffer = '';

  const dispatch = (block: string) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) onEvent({ event, data: data.join('\n') });
  };

  return {
    push(text: string) {
      buffer += text;
      const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
      buffer = blocks.pop() ?? '';
      for (const block of blocks) dispatch(block);
    },
    /** The stream ended: an event without its closing blank line still counts. */
    end() {
      if (buffer.trim() !== '') dispatch(buffer);
      buffer = '';
    },
  };
}
