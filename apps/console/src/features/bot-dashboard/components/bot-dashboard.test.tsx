import type { BotStats, Conversation, ConversationSummary } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BOT,
  BOT_ID,
  CONVERSATION_ID,
  OTHER_BOT,
  OTHER_BOT_ID,
  statsOf,
  SUMMARY,
  TRANSCRIPT,
} from '../../../test/bot-dashboard-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { listOf } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { BotDashboard, type DashboardPeriod } from './bot-dashboard';

interface World {
  bots?: unknown[];
  stats?: BotStats;
  conversations?: ConversationSummary[];
  transcript?: Conversation;
}

function stubDashboard(world: World) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === '/v1/bots') return listOf(world.bots ?? [BOT, OTHER_BOT]);
      if (path.endsWith('/stats')) return json(200, world.stats ?? statsOf(true));
      if (path.endsWith('/conversations')) return listOf(world.conversations ?? [SUMMARY]);
      if (path === `/v1/conversations/${CONVERSATION_ID}`) return json(200, world.transcript ?? TRANSCRIPT);
      return undefined;
    },
  });
}

/** The dashboard with its bot and period kept in state, as the page keeps them in the address. */
function Harness({ initialBot = null }: { initialBot?: string | null }) {
  const [bot, setBot] = useState<string | null>(initialBot);
  const [days, setDays] = useState<DashboardPeriod>(30);
  return <BotDashboard botId={bot} days={days} onBotChange={setBot} onDaysChange={setDays} />;
}

/** The full URLs (path and query) the console fetched. */
const fetched = (fetchMock: ReturnType<typeof stubDashboard>['fetchMock']) =>
  fetchMock.mock.calls.map(([input]) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    return `${url.pathname}${url.search}`;
  });

describe('BotDashboard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends an organisation without bots to create one', async () => {
    stubDashboard({ bots: [] });
    renderRoute(<Harness />);
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a bot' })).toHaveAttribute('href', '/bot/manage');
    expect(screen.queryByRole('heading', { name: 'Activity' })).not.toBeInTheDocument();
  });

  it('tells what to do next when a bot has had no conversations', async () => {
    stubDashboard({ stats: statsOf(false), conversations: [] });
    renderRoute(<Harness />);
    expect(
      await screen.findByRole('heading', { name: 'No conversations in the last 30 days' }),
    ).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'Install the widget' })) {
      expect(link).toHaveAttribute('href', '/bot/install');
    }
    expect(screen.getByRole('link', { name: 'Try the bot' })).toHaveAttribute('href', '/bot/prompt/test');
    expect(await screen.findByRole('heading', { name: 'No conversations yet' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Conversations:/ })).not.toBeInTheDocument();
  });

  it("draws the totals and the day-by-day charts with the bot's own feedback button texts", async () => {
    const { fetchMock } = stubDashboard({});
    renderRoute(<Harness />);
    const chart = await screen.findByRole('img', { name: /^Conversations: 4 in 7 days; most on/ });
    // One bar segment per non-zero value: 3 conversations on the 5th, 1 on the 7th.
    expect(chart.querySelectorAll('rect')).toHaveLength(2);
    const messages = screen.getByRole('img', { name: /^Bot messages: 7 in 7 days/ });
    expect(messages.querySelectorAll('rect[data-series="answered"]')).toHaveLength(2);
    expect(messages.querySelectorAll('rect[data-series="fallback"]')).toHaveLength(2);
    const feedback = screen.getByRole('img', { name: /^Feedback: 4 in 7 days/ });
    expect(feedback.querySelectorAll('rect')).toHaveLength(3);
    // The figures as a table for screen readers, with the bot's button texts as columns.
    const table = screen.getByRole('table', { name: 'Feedback' });
    expect(within(table).getByRole('columnheader', { name: 'Great' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(8);
    const totals = screen.getByLabelText('Totals of the period');
    expect(within(totals).getByText('Conversations').nextSibling).toHaveTextContent('4');
    expect(within(totals).getByText('Answered').nextSibling).toHaveTextContent('5');
    expect(within(totals).getByText('71% of bot messages')).toBeInTheDocument();
    expect(within(totals).getByText('Great 2 · Meh 1 · Wrong 1')).toBeInTheDocument();
    expect(fetched(fetchMock)).toContain(`/v1/bots/${BOT_ID}/stats?days=30`);
  });

  it('asks for the period chosen and the bot picked', async () => {
    const { fetchMock } = stubDashboard({});
    renderRoute(<Harness />);
    await screen.findByRole('img', { name: /^Conversations:/ });
    await userEvent.click(screen.getByText('7 days'));
    await waitFor(() => expect(fetched(fetchMock)).toContain(`/v1/bots/${BOT_ID}/stats?days=7`));
    await userEvent.click(screen.getByRole('combobox', { name: 'Bot' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Sales (disabled)' }));
    await waitFor(() => expect(fetched(fetchMock)).toContain(`/v1/bots/${OTHER_BOT_ID}/stats?days=7`));
    expect(fetched(fetchMock)).toContain(`/v1/bots/${OTHER_BOT_ID}/conversations?page=1&page_size=10`);
  });

  it('searches the conversation log on the server', async () => {
    const { fetchMock } = stubDashboard({});
    renderRoute(<Harness />);
    await screen.findByText('My PIN is **** and I want a refund');
    // The visitor's country from the bot's geolocation, named.
    expect(screen.getAllByText('France (FR)').length).toBeGreaterThan(0);
    await userEvent.type(screen.getByRole('textbox', { name: 'Search conversations' }), '100%');
    await waitFor(() =>
      expect(fetched(fetchMock)).toContain(`/v1/bots/${BOT_ID}/conversations?page=1&page_size=10&q=100%25`),
    );
  });

  it('opens a transcript with masked text, sources as safe links, the trace and the feedback', async () => {
    stubDashboard({});
    renderRoute(<Harness initialBot={BOT_ID} />);
    const row = await screen.findAllByRole('button', {
      name: 'Open the transcript: My PIN is **** and I want a refund',
    });
    await userEvent.click(row[0] as HTMLElement);
    const drawer = await screen.findByRole('dialog', { name: 'Conversation' });
    expect(await within(drawer).findByText(/from France \(FR\)/)).toBeInTheDocument();
    const list = await within(drawer).findByRole('list', { name: 'Messages' });
    const items = within(list).getAllByRole('listitem', { name: /^(Bot|Visitor),/ });
    expect(items.map((item) => item.getAttribute('aria-label')?.split(',')[0])).toEqual([
      'Visitor',
      'Bot',
      'Visitor',
      'Bot',
    ]);
    expect(within(drawer).getByText('My PIN is **** and I want a refund')).toBeInTheDocument();
    const source = within(drawer).getByRole('link', { name: /Returns policy/ });
    expect(source).toHaveAttribute('href', 'https://shop.acme.test/returns');
    expect(source).toHaveAttribute('rel', 'noopener noreferrer');
    // A source whose address is not http(s) is named, never linked.
    expect(within(drawer).getByText(/Sneaky source/)).toBeInTheDocument();
    expect(within(drawer).queryByRole('link', { name: /Sneaky source/ })).not.toBeInTheDocument();
    expect(within(drawer).getByText('Great')).toBeInTheDocument();
    expect(within(drawer).getByText('“Thanks, very clear”')).toBeInTheDocument();
    expect(within(drawer).getByText('Wrong')).toBeInTheDocument();
    expect(within(drawer).getByText('Fallback')).toBeInTheDocument();
    expect(within(drawer).getByText(/No RAG is set\./)).toBeInTheDocument();
  });
});
