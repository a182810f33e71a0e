import type { CaseSummary, InboxTranscript } from '@omnibot/contracts';
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeCaseSummary, MASKED_CARD, MASKED_EMAIL, UNBROKEN } from '../../../test/case-summary-fixture';
import { stubAuthApi } from '../../../test/fake-auth-api';
import {
  FakeEventSource,
  inboxHandler,
  makeConversation,
  ME,
  QUEUED_ID,
  stubEventSource,
  transcriptOf,
} from '../../../test/inbox-fixture';
import { renderRoute } from '../../../test/render';
import { Inbox } from './inbox';

const QUEUED = makeConversation();

/** The inbox with one waiting conversation whose transcript carries `summary`, opened. */
function openWith(summary: CaseSummary | null) {
  const transcripts: Record<string, InboxTranscript> = { [QUEUED_ID]: { ...transcriptOf(QUEUED), summary } };
  const api = stubAuthApi({
    signedIn: true,
    handle: inboxHandler({ list: () => [QUEUED], transcripts: () => transcripts }),
  });
  renderRoute(<Inbox userId={ME.id} />, { path: `/inbox?id=${QUEUED_ID}` });
  return { api, transcripts };
}

/** The open conversation once its transcript is on screen. */
async function conversation() {
  const panel = await screen.findByRole('region', { name: 'Conversation' });
  await within(panel).findByText('Where is my parcel?');
  return panel;
}

const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');

describe('the case summary in the inbox header', () => {
  beforeEach(() => stubEventSource());
  afterEach(() => vi.unstubAllGlobals());

  it('shows each section under its label, how and when it was written, above the transcript', async () => {
    openWith(makeCaseSummary());
    const panel = await conversation();
    const summary = within(panel).getByRole('region', { name: 'Case summary' });
    const terms = within(summary)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual(['Issue', 'Bot answered', 'Still open', 'Sentiment']);
    const definitions = within(summary)
      .getAllByRole('definition')
      .map((value) => value.textContent);
    expect(definitions).toEqual([
      `My card ${MASKED_CARD} was charged twice for order 5521.`,
      'Double charges are refunded within five working days.',
      `"Can you send the confirmation to ${MASKED_EMAIL}?" The visitor asked for a person.`,
      'negative',
    ]);
    expect(summary).toHaveTextContent(/At hand-over · from the transcript · /);
    // The agent reads the summary before the transcript.
    const transcript = within(panel).getByRole('list', { name: 'Transcript' });
    expect(summary.compareDocumentPosition(transcript) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('names the chat model that wrote it, and leaves out the sections the configuration does not ask for', async () => {
    openWith(
      makeCaseSummary({
        method: 'model',
        model_name: 'Summariser',
        sections: { issue: 'A parcel went to the wrong harbour.', sentiment: 'neutral' },
      }),
    );
    const summary = within(await conversation()).getByRole('region', { name: 'Case summary' });
    expect(summary).toHaveTextContent(/At hand-over · by Summariser · /);
    expect(
      within(summary)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Issue', 'Sentiment']);
    expect(summary).not.toHaveTextContent('Bot answered');
    expect(summary).not.toHaveTextContent('Still open');
  });

  it('shows no summary when the conversation has none', async () => {
    openWith(null);
    const panel = await conversation();
    expect(within(panel).queryByRole('region', { name: 'Case summary' })).not.toBeInTheDocument();
    expect(panel).not.toHaveTextContent('Case summary');
  });

  it('shows no empty card for a summary with nothing in it', async () => {
    openWith(makeCaseSummary({ sections: { issue: '', answers: '' }, text: '' }));
    const panel = await conversation();
    expect(within(panel).queryByRole('region', { name: 'Case summary' })).not.toBeInTheDocument();
    expect(panel).not.toHaveTextContent('Case summary');
  });

  it('shows the summary once the stream says it was written, without reloading the page', async () => {
    const { transcripts } = openWith(null);
    const panel = await conversation();
    expect(within(panel).queryByRole('region', { name: 'Case summary' })).not.toBeInTheDocument();
    transcripts[QUEUED_ID] = { ...transcriptOf(QUEUED), summary: makeCaseSummary() };
    act(() => FakeEventSource.current().emit('summary', { conversationId: QUEUED_ID }));
    const summary = await within(panel).findByRole('region', { name: 'Case summary' });
    expect(summary).toHaveTextContent('Double charges are refunded within five working days.');
  });

  it('lets long text wrap inside the card instead of running off a phone screen', async () => {
    openWith(
      makeCaseSummary({
        sections: { issue: `My order number is ${UNBROKEN} and it never came.`, sentiment: 'negative' },
      }),
    );
    const summary = within(await conversation()).getByRole('region', { name: 'Case summary' });
    const issue = within(summary).getByText(/My order number is/);
    expect(issue.tagName).toBe('DD');
    // An unbroken run may break anywhere, so the text's narrowest width is not the run's length.
    expect(issue.style.overflowWrap).toBe('anywhere');
    // The label keeps its width and the text takes what is left of the row.
    const row = issue.parentElement as HTMLElement;
    expect(row.firstElementChild?.tagName).toBe('DT');
    expect(row.children).toHaveLength(2);
  });

  for (const mode of ['light', 'dark'] as const) {
    it(`shows the summary in the ${mode} theme`, async () => {
      window.localStorage.setItem('appMode', mode);
      openWith(makeCaseSummary());
      const panel = await conversation();
      const summary = within(panel).getByRole('region', { name: 'Case summary' });
      expect(scheme()).toBe(mode);
      expect(within(summary).getByText('negative')).toBeVisible();
      expect(within(panel).getByRole('button', { name: 'Claim' })).toBeVisible();
    });
  }
});
