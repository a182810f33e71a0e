import type { Conversation } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BOT,
  BOT_ID,
  CONVERSATION_ID,
  statsOf,
  SUMMARY,
  TRANSCRIPT,
} from '../../../test/bot-dashboard-fixture';
import { makeCaseSummary, MASKED_CARD, UNBROKEN } from '../../../test/case-summary-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { listOf } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { BotDashboard } from './bot-dashboard';

/** The dashboard of one bot whose one conversation is `transcript`, with its transcript drawer opened. */
async function openTranscript(transcript: Conversation) {
  stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === '/v1/bots') return listOf([BOT]);
      if (path.endsWith('/stats')) return json(200, statsOf(true));
      if (path.endsWith('/conversations')) return listOf([SUMMARY]);
      if (path === `/v1/conversations/${CONVERSATION_ID}`) return json(200, transcript);
      return undefined;
    },
  });
  renderRoute(<BotDashboard botId={BOT_ID} days={30} onBotChange={() => {}} onDaysChange={() => {}} />);
  const [row] = await screen.findAllByRole('button', {
    name: 'Open the transcript: My PIN is **** and I want a refund',
  });
  await userEvent.click(row as HTMLElement);
  const drawer = await screen.findByRole('dialog', { name: 'Conversation' });
  await within(drawer).findByRole('list', { name: 'Messages' });
  return drawer;
}

const HANDOVER = makeCaseSummary({ id: 'cs-1', conversation_id: CONVERSATION_ID });
const CLOSE = makeCaseSummary({
  id: 'cs-2',
  conversation_id: CONVERSATION_ID,
  trigger: 'close',
  method: 'model',
  model_name: 'Summariser',
  created_at: '2026-01-01T10:09:00.000Z',
  sections: { issue: 'A double charge on order 5521.', open: 'Nothing is left open.', sentiment: 'positive' },
});

const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');

describe('the case summaries in the dashboard transcript', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows every summary with its sections, at hand-over and at close, before the messages', async () => {
    const drawer = await openTranscript({ ...TRANSCRIPT, summaries: [HANDOVER, CLOSE] });
    const handover = within(drawer).getByRole('region', { name: 'Case summary at hand-over' });
    expect(
      within(handover)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Issue', 'Bot answered', 'Still open', 'Sentiment']);
    expect(handover).toHaveTextContent(`My card ${MASKED_CARD} was charged twice for order 5521.`);
    expect(handover).toHaveTextContent(/At hand-over · from the transcript · /);
    const close = within(drawer).getByRole('region', { name: 'Case summary at close' });
    expect(
      within(close)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['A double charge on order 5521.', 'Nothing is left open.', 'positive']);
    expect(close).toHaveTextContent(/At close · by Summariser · /);
    const messages = within(drawer).getByRole('list', { name: 'Messages' });
    for (const summary of [handover, close]) {
      expect(summary.compareDocumentPosition(messages) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
  });

  it('shows no summary for a conversation without one, nor an empty card for an empty one', async () => {
    const drawer = await openTranscript({
      ...TRANSCRIPT,
      summaries: [makeCaseSummary({ conversation_id: CONVERSATION_ID, sections: {}, text: '' })],
    });
    expect(within(drawer).queryByRole('region', { name: /^Case summary/ })).not.toBeInTheDocument();
    expect(drawer).not.toHaveTextContent('Case summary');
    // The transcript itself is all there.
    expect(within(drawer).getByText('And gift cards?')).toBeInTheDocument();
  });

  it('lets a long summary wrap in the drawer instead of running off a phone screen', async () => {
    const drawer = await openTranscript({
      ...TRANSCRIPT,
      summaries: [
        makeCaseSummary({
          conversation_id: CONVERSATION_ID,
          sections: { issue: `Order ${UNBROKEN} never came.`, answers: 'It is on its way.' },
        }),
      ],
    });
    const summary = within(drawer).getByRole('region', { name: 'Case summary at hand-over' });
    for (const value of within(summary).getAllByRole('definition')) {
      expect(value.style.overflowWrap).toBe('anywhere');
    }
    expect(within(summary).getByText(`Order ${UNBROKEN} never came.`)).toBeInTheDocument();
  });

  for (const mode of ['light', 'dark'] as const) {
    it(`shows the summary in the ${mode} theme`, async () => {
      window.localStorage.setItem('appMode', mode);
      const drawer = await openTranscript({ ...TRANSCRIPT, summaries: [HANDOVER] });
      expect(scheme()).toBe(mode);
      const summary = within(drawer).getByRole('region', { name: 'Case summary at hand-over' });
      expect(within(summary).getByText('negative')).toBeVisible();
    });
  }
});
