import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnswerResult } from '@omnibot/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { ANSWER, RAG_ID, sseResponse } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { RagTestBox } from './rag-test-box';

const ANSWER_PATH = `/v1/rags/${RAG_ID}/answer`;

/** Answers each question with the next of `responses`, recording the bodies asked. */
function stubAnswers(responses: (() => Response)[]) {
  const asked: unknown[] = [];
  stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method !== 'POST' || path !== ANSWER_PATH) return undefined;
      asked.push(body);
      return responses[asked.length - 1]?.();
    },
  });
  return asked;
}

const ask = async (user: ReturnType<typeof userEvent.setup>, question: string) => {
  await fill(user, screen.getByRole('textbox', { name: 'Question' }), question);
  await user.click(screen.getByRole('button', { name: 'Ask' }));
};

describe('RagTestBox', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the deltas as they stream, drops them on reset, then the answer with linked sources and timings', async () => {
    const stream = sseResponse();
    const asked = stubAnswers([() => stream.response]);
    const user = userEvent.setup();
    renderRoute(<RagTestBox ragId={RAG_ID} />);
    expect(screen.getByText(/no questions yet/i)).toBeInTheDocument();

    await ask(user, 'How long do I have to return an item?');
    expect(await screen.findByText('How long do I have to return an item?')).toBeInTheDocument();
    expect(asked).toEqual([{ question: 'How long do I have to return an item?', history: [] }]);

    stream.send('delta', { text: 'Broken ' });
    stream.send('delta', { text: 'start' });
    const live = await screen.findByTestId('streaming-answer');
    await waitFor(() => expect(live).toHaveTextContent('Broken start'));

    stream.send('reset', {});
    await waitFor(() => expect(live).not.toHaveTextContent('Broken'));
    // One event split over two reads.
    stream.push('event: delta\ndata: {"text":"Items can be');
    stream.push(' returned"}\n\n');
    await waitFor(() => expect(live).toHaveTextContent('Items can be returned'));
    expect(live).not.toHaveTextContent('Broken');

    stream.send('sources', ANSWER);
    stream.close();
    const marker = await screen.findByRole('link', { name: 'Source 1' });
    expect(screen.queryByTestId('streaming-answer')).not.toBeInTheDocument();
    expect(marker).toHaveTextContent('[1]');
    const firstSource = marker.getAttribute('href')?.slice(1) ?? '';
    expect(document.getElementById(firstSource)).toHaveTextContent('Returns policy');
    expect(screen.getByRole('link', { name: 'Source 2' })).toBeInTheDocument();

    const sources = screen.getByRole('list', { name: 'Sources' });
    expect(
      within(sources).getByRole('link', { name: 'Returns policy (opens in a new tab)' }),
    ).toHaveAttribute('href', 'https://acme.test/returns');
    expect(sources).toHaveTextContent('Policies › Returns · score 0.812');
    expect(sources).toHaveTextContent('Refunds.pdf');
    expect(sources).toHaveTextContent('page 4 · score 0.500');
    expect(screen.getByText('Model')).toBeInTheDocument();
    expect(screen.getByLabelText('Timings')).toHaveTextContent(
      'Retrieve 12 ms · Generate 340 ms · Total 356 ms',
    );
    expect(screen.queryByText(/fallback: a person/i)).not.toBeInTheDocument();
  });

  it('sends the session so far with a follow-up question, and forgets it when cleared', async () => {
    const first = sseResponse();
    const second = sseResponse();
    const third = sseResponse();
    const asked = stubAnswers([() => first.response, () => second.response, () => third.response]);
    const user = userEvent.setup();
    renderRoute(<RagTestBox ragId={RAG_ID} />);

    await ask(user, 'Can I return an item?');
    first.send('sources', ANSWER);
    first.close();
    await screen.findByRole('link', { name: 'Source 1' });

    await ask(user, 'And the refund?');
    const fallback: AnswerResult = {
      ...ANSWER,
      id: 'answer-2',
      answer: 'Sorry, I do not know. Would you like to talk to a person?',
      kind: 'fallback',
      fallback: true,
      sources: [],
      model_error: { code: 'model/timeout', reason: 'The chat model did not answer in time.' },
    };
    second.send('sources', fallback);
    second.close();
    expect(await screen.findByText('Fallback text')).toBeInTheDocument();
    expect(screen.getByText('Fallback: a person would be offered')).toBeInTheDocument();
    expect(screen.getByText('The chat model was not used')).toBeInTheDocument();
    expect(screen.getByText(/the chat model did not answer in time/i)).toBeInTheDocument();
    expect(asked[1]).toEqual({
      question: 'And the refund?',
      history: [
        { role: 'user', content: 'Can I return an item?' },
        { role: 'assistant', content: ANSWER.answer },
      ],
    });

    await user.click(screen.getByRole('button', { name: 'Clear conversation' }));
    expect(screen.queryAllByTestId('test-turn')).toHaveLength(0);
    expect(screen.getByText(/no questions yet/i)).toBeInTheDocument();
    await ask(user, 'Hello?');
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2]).toEqual({ question: 'Hello?', history: [] });
  });

  it('shows the Q&A and extractive kinds', async () => {
    const qa = sseResponse();
    const extractive = sseResponse();
    stubAnswers([() => qa.response, () => extractive.response]);
    const user = userEvent.setup();
    renderRoute(<RagTestBox ragId={RAG_ID} />);
    await ask(user, 'Opening hours?');
    qa.send('sources', { ...ANSWER, kind: 'qa', answer: 'Nine to five.', sources: [] });
    qa.close();
    expect(await screen.findByText('Q&A')).toBeInTheDocument();
    await ask(user, 'Returns?');
    extractive.send('sources', { ...ANSWER, kind: 'extractive' });
    extractive.close();
    expect(await screen.findByText('Extractive')).toBeInTheDocument();
  });

  it('links only http(s) pages and signed downloads of sources; a script address stays plain text', async () => {
    const stream = sseResponse();
    stubAnswers([() => stream.response]);
    const user = userEvent.setup();
    renderRoute(<RagTestBox ragId={RAG_ID} />);
    await ask(user, 'Returns?');
    const [first, second] = ANSWER.sources;
    stream.send('sources', {
      ...ANSWER,
      sources: [
        { ...first, title: 'Hostile.pdf', url: "javascript:window.__xss=1;void'.pdf'" },
        {
          ...second,
          title: 'Signed.pdf',
          url: '/v1/files/download?tenant=t&path=a.pdf&expires=1&signature=s',
        },
      ],
    });
    stream.close();
    const sources = await screen.findByRole('list', { name: 'Sources' });
    expect(sources).toHaveTextContent('Hostile.pdf');
    expect(
      within(sources)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`${window.location.origin}/v1/files/download?tenant=t&path=a.pdf&expires=1&signature=s`]);
    expect(sources.querySelector('[href^="javascript"]')).toBeNull();
  });

  it('refuses an empty question without asking, and shows a refusal and a cut-off stream in plain words', async () => {
    const cut = sseResponse();
    const asked = stubAnswers([
      () => json(404, { code: 'not_found', message: 'The RAG does not exist.' }),
      () => cut.response,
    ]);
    const user = userEvent.setup();
    renderRoute(<RagTestBox ragId={RAG_ID} />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    expect(await screen.findByText('The question is required')).toBeInTheDocument();
    expect(asked).toEqual([]);

    await ask(user, 'Anyone there?');
    expect(await screen.findByText('The RAG does not exist.')).toBeInTheDocument();

    await ask(user, 'Again?');
    cut.send('delta', { text: 'Half an' });
    cut.close();
    expect(await screen.findByText(/the answer stopped before it was complete/i)).toBeInTheDocument();
  });
});
