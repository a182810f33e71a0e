import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BotTestCase, BotTestRun } from '@omnibot/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { BOT_ID, BOTS, caseOf, runOf, SOURCE_ID, SOURCES } from '../../../test/bot-testing-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as BotTestingPage } from './bot-testing-page';

const SESSION: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'user', tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
};
const BASE = `/v1/bots/${BOT_ID}`;
const PATH = `/bot/testing?bot=${BOT_ID}`;

const FIRST = caseOf('c-1', 'How long does delivery take?', { expected_text: 'three days' });
const SECOND = caseOf('c-2', 'Where are returns sent?', {
  expected_source_id: SOURCE_ID,
  expected_source_title: 'Shipping',
});

/** A small in-memory suite behind the test-case and test-run routes; `runs` are served newest first. */
function stubSuite(state: { cases: BotTestCase[]; runs: BotTestRun[]; onRun?: () => Response }) {
  const posted: unknown[] = [];
  const api = stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/bots') return json(200, BOTS);
      if (method === 'GET' && path === `${BASE}/test-cases`) return json(200, { items: state.cases });
      if (method === 'GET' && path === `${BASE}/test-sources`) return json(200, SOURCES);
      if (method === 'GET' && path === `${BASE}/test-runs`) return json(200, { items: state.runs });
      if (method === 'POST' && path === `${BASE}/test-cases`) {
        posted.push(body);
        const fields = body as Partial<BotTestCase> & { question: string };
        const made = caseOf(`c-${state.cases.length + 1}`, fields.question, {
          ...fields,
          expected_source_title: fields.expected_source_id === SOURCE_ID ? 'Shipping' : null,
        });
        state.cases = [...state.cases, made];
        return json(201, made);
      }
      if (method === 'PATCH' && path.startsWith(`${BASE}/test-cases/`)) {
        posted.push(body);
        const id = path.split('/').at(-1);
        state.cases = state.cases.map((item) => (item.id === id ? { ...item, ...(body as object) } : item));
        return json(
          200,
          state.cases.find((item) => item.id === id),
        );
      }
      if (method === 'DELETE' && path.startsWith(`${BASE}/test-cases/`)) {
        const id = path.split('/').at(-1);
        state.cases = state.cases.filter((item) => item.id !== id);
        return new Response(null, { status: 204 });
      }
      if (method === 'POST' && path === `${BASE}/test-runs`) return state.onRun?.();
      return undefined;
    },
  });
  return { ...api, posted };
}

describe('/bot/testing', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells what to do with an empty suite, and validates a new case before saving it', async () => {
    const { posted } = stubSuite({ cases: [], runs: [] });
    const user = userEvent.setup();
    renderRoute(<BotTestingPage />, { path: PATH, session: SESSION });
    expect(await screen.findByRole('heading', { name: 'No test cases yet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run' })).toBeDisabled();
    expect(screen.getByText(/No finished runs yet/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add case' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add test case' });
    await user.click(within(dialog).getByRole('button', { name: 'Add case' }));
    expect(await within(dialog).findByText('The question is required')).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Question' }), 'Where are returns sent?');
    await user.click(within(dialog).getByRole('button', { name: 'Add case' }));
    expect(
      await within(dialog).findByText('Give an expected text, an expected source, or both.', {
        selector: '.mantine-InputWrapper-error, .mantine-TextInput-error',
      }),
    ).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.click(within(dialog).getByRole('combobox', { name: 'Expected source' }));
    await user.click(await screen.findByRole('option', { name: 'Shipping (Help)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add case' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted).toEqual([
      { question: 'Where are returns sent?', expected_text: null, expected_source_id: SOURCE_ID },
    ]);
    const list = await screen.findByRole('list', { name: 'Test cases' });
    expect(list).toHaveTextContent('Where are returns sent?');
    expect(list).toHaveTextContent('Cites: Shipping');
  });

  it('edits and deletes cases', async () => {
    const { posted } = stubSuite({ cases: [FIRST, SECOND], runs: [] });
    const user = userEvent.setup();
    renderRoute(<BotTestingPage />, { path: PATH, session: SESSION });
    const list = await screen.findByRole('list', { name: 'Test cases' });
    expect(list).toHaveTextContent('Contains: three days');

    await user.click(screen.getByRole('button', { name: 'Edit case: How long does delivery take?' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit test case' });
    const expected = within(dialog).getByRole('textbox', { name: 'Expected text' });
    expect(expected).toHaveValue('three days');
    await user.clear(expected);
    await fill(user, expected, 'three working days');
    await user.click(within(dialog).getByRole('button', { name: 'Save case' }));
    await waitFor(() => expect(list).toHaveTextContent('Contains: three working days'));
    expect(posted).toEqual([
      {
        question: 'How long does delivery take?',
        expected_text: 'three working days',
        expected_source_id: null,
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Delete case: Where are returns sent?' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(list).not.toHaveTextContent('Where are returns sent?'));
  });

  it('runs the suite, follows its progress, shows pass and fail per case and the pass rate over runs', async () => {
    const old = runOf('r-0', { passed: 1, failed: 1, created_at: '2025-12-31T00:00:00.000Z' });
    const state = {
      cases: [FIRST, SECOND],
      runs: [old],
      onRun: () => {
        const queued = runOf('r-1', { status: 'running', passed: 0, failed: 0, finished_at: null });
        state.runs = [
          {
            ...queued,
            passed: 1,
            results: [
              {
                case_id: FIRST.id,
                question: FIRST.question,
                expected_text: 'three days',
                expected_source_id: null,
                answer: 'Parcels arrive in three days.',
                cited_source_ids: [],
                pass: true,
                reason: 'The answer contains the expected text.',
              },
            ],
          },
          old,
        ];
        return json(202, { ...queued, status: 'queued' });
      },
    };
    stubSuite(state);
    const user = userEvent.setup();
    renderRoute(<BotTestingPage />, { path: PATH, session: SESSION });
    expect(
      await screen.findByRole('img', { name: 'Pass rate of the last 1 runs, oldest first: 50%' }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('running')).toBeInTheDocument();
    expect(screen.getByText('1 passed · 0 failed · 1 of 2 cases')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Run progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run' })).toBeDisabled();

    // The run finishes; the screen reads it again while it works.
    const [running] = state.runs;
    state.runs = [
      {
        ...runOf('r-1', { passed: 1, failed: 1 }),
        results: [
          ...(running?.results ?? []),
          {
            case_id: SECOND.id,
            question: SECOND.question,
            expected_text: null,
            expected_source_id: SOURCE_ID,
            answer: '<b>Returns</b> go to Lisbon.',
            cited_source_ids: [],
            pass: false,
            reason: 'The answer cites no source (expected "Shipping").',
          },
        ],
      },
      old,
    ];
    expect(await screen.findByText('done')).toBeInTheDocument();
    const results = screen.getAllByTestId('test-result');
    expect(results).toHaveLength(2);
    expect(results[0]).toHaveTextContent('Pass');
    expect(results[1]).toHaveTextContent('Fail');
    expect(results[1]).toHaveTextContent('<b>Returns</b> go to Lisbon.');
    expect(results[1]).toHaveTextContent('The answer cites no source (expected "Shipping").');
    expect(
      screen.getByRole('img', { name: 'Pass rate of the last 2 runs, oldest first: 50%, 50%' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run' })).toBeEnabled();
  });

  it('says why a run did not start', async () => {
    stubSuite({
      cases: [FIRST],
      runs: [],
      onRun: () =>
        json(409, {
          code: 'bot-test/run-in-progress',
          message: 'A test run of this bot is already queued or running; wait for it to finish.',
        }),
    });
    const user = userEvent.setup();
    renderRoute(<BotTestingPage />, { path: PATH, session: SESSION });
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    expect(
      await screen.findByText('A test run of this bot is already queued or running; wait for it to finish.'),
    ).toBeInTheDocument();
  });
});
