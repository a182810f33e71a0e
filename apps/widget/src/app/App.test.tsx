import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startConfigServer, type ConfigServer } from '../test/config-server';
import { App } from './App';

let server: ConfigServer;

beforeAll(async () => {
  server = await startConfigServer({
    welcoming: {
      identity: { botName: 'Ada', description: 'Answers about your orders' },
      welcome: {
        welcomeText: 'Hello, I am **Ada**. See [our help](https://help.example.com).',
        welcomeText_enabled: true,
        start_suggestions: ['Track my order', 'Opening hours'],
      },
      titles: { inputTitle: 'Your question', sendTitle: 'Ask' },
    },
    quiet: { welcome: { welcomeText_enabled: false, start_suggestions: [] } },
  });
});

afterAll(() => server.close());
afterEach(cleanup);

const renderApp = (botId: string) => render(<App apiBase={server.origin} botId={botId} hostOrigin={null} />);

describe('the chat app', () => {
  it('shows the header, the welcome text as Markdown and the start suggestions from the configuration', async () => {
    renderApp('welcoming');
    expect(await screen.findByRole('heading', { name: 'Ada' })).toBeTruthy();
    expect(screen.getByText('Answers about your orders')).toBeTruthy();
    const log = screen.getByRole('log');
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(within(log).getByText('Ada').tagName).toBe('STRONG');
    expect(within(log).getByRole('link', { name: 'our help' }).getAttribute('href')).toBe(
      'https://help.example.com/',
    );
    const chips = within(screen.getByRole('list', { name: 'Suggestions' })).getAllByRole('button');
    expect(chips.map((chip) => chip.textContent)).toEqual(['Track my order', 'Opening hours']);
    expect(screen.getByRole('textbox', { name: 'Your question' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows neither welcome text nor suggestions when they are off, and the default titles', async () => {
    renderApp('quiet');
    const log = await screen.findByRole('log');
    expect(log.textContent).toBe('');
    expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(true);
  });

  it('posts a message to /v1/intent and, when that fails, keeps it marked with a retry action', async () => {
    renderApp('quiet');
    const input = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: '  Where is my parcel?  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(within(screen.getByRole('log')).getByText('Where is my parcel?')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');
    await screen.findByText(/Not sent/);
    const posts = () => server.requests.filter((request) => request === 'POST /v1/intent').length;
    expect(posts()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText(/Not sent/);
    expect(posts()).toBe(2);
    expect(within(screen.getByRole('log')).getAllByText('Where is my parcel?')).toHaveLength(1);
  });

  it('sends a suggestion when its chip is clicked and then hides the chips', async () => {
    renderApp('welcoming');
    fireEvent.click(await screen.findByRole('button', { name: 'Opening hours' }));
    expect(within(screen.getByRole('log')).getByText('Opening hours')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull();
    await screen.findByText(/Not sent/);
  });

  it('says so when the bot cannot be loaded', async () => {
    renderApp('missing');
    expect((await screen.findByRole('alert')).textContent).toContain('not available');
  });
});
