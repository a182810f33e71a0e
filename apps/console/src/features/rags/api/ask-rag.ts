import {
  type AnswerBody,
  AnswerDeltaSchema,
  type AnswerResult,
  AnswerResultSchema,
  createSseParser,
  ERROR_CATALOGUE,
} from '@omnibot/contracts';
import { ApiError, errorFrom } from '../../../lib/api-client';

export interface AskHandlers {
  /** A piece of answer text to append. */
  onDelta: (text: string) => void;
  /** The text so far is void (the model failed part-way); the deltas that follow replace it. */
  onReset: () => void;
  signal?: AbortSignal;
}

/** Thrown when the stream stops before its final `sources` event. */
export class IncompleteAnswerError extends Error {
  override readonly name = 'IncompleteAnswerError';
  constructor() {
    super('The answer stopped before it was complete. Please ask again.');
  }
}

/**
 * Asks a RAG for Server-Sent Events (`Accept: text/event-stream`): the answer text arrives through `onDelta` as it is written, and the promise
 * resolves with the whole AnswerResult of the final `sources` event. A refusal before the stream starts throws
 * the server's ApiError, as any other call does.
 */
export async function askRag(
  id: string,
  body: AnswerBody,
  { onDelta, onReset, signal }: AskHandlers,
): Promise<AnswerResult> {
  let response: Response;
  try {
    response = await fetch(`/v1/rags/${encodeURIComponent(id)}/answer`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', ERROR_CATALOGUE.network_error);
  }
  if (!response.ok) throw await errorFrom(response);
  // A server that answers with JSON instead of a stream still gives the whole answer.
  if (response.headers.get('content-type')?.includes('application/json')) {
    const result = AnswerResultSchema.parse(await response.json());
    onDelta(result.answer);
    return result;
  }
  if (!response.body) throw new IncompleteAnswerError();

  const final: { result: AnswerResult | null } = { result: null };
  const parser = createSseParser(({ event, data }) => {
    if (event === 'delta') onDelta(AnswerDeltaSchema.parse(JSON.parse(data)).text);
    else if (event === 'reset') onReset();
    else if (event === 'sources') final.result = AnswerResultSchema.parse(JSON.parse(data));
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
  if (!final.result) throw new IncompleteAnswerError();
  return final.result;
}
