import { describe, expect, it } from 'vitest';
import type { SetupProgress } from '../api/get-setup-progress';
import { isSetupComplete, NEEDS_OMNIRAG, setupSteps } from './setup-steps';

const NOTHING: SetupProgress = {
  hasKnowledge: false,
  hasIndex: false,
  hasRag: false,
  bot: null,
  isInstalled: false,
  isTried: false,
};
const ALL: SetupProgress = {
  hasKnowledge: true,
  hasIndex: true,
  hasRag: true,
  bot: { id: 'b-1', name: 'Help bot' },
  isInstalled: true,
  isTried: true,
};

describe('setupSteps', () => {
  it('lists knowledge base, index, RAG, bot, install and try it, in that order, each linking to its screen', () => {
    const steps = setupSteps(ALL, { hasOmnirag: true });
    expect(steps.map((step) => [step.id, step.action?.href])).toEqual([
      ['knowledge', '/knowledge'],
      ['index', '/index'],
      ['rag', '/rag'],
      ['bot', '/bot/customize'],
      ['install', '/bot/install?bot_id=b-1'],
      ['try', '/demo?bot=b-1'],
    ]);
    expect(steps.at(-1)?.action?.external).toBe(true);
    expect(isSetupComplete(steps)).toBe(true);
  });

  it('offers no install or demo link before there is a bot', () => {
    const steps = setupSteps(NOTHING, { hasOmnirag: true });
    const byId = new Map(steps.map((step) => [step.id, step]));
    expect(byId.get('install')).toMatchObject({ action: null, blocked: 'Create a bot first.' });
    expect(byId.get('try')).toMatchObject({ action: null, blocked: 'Create a bot first.' });
    expect(isSetupComplete(steps)).toBe(false);
  });

  it('says why the Omni RAG steps cannot be taken without the subscription, and does not wait for them', () => {
    const steps = setupSteps(
      { ...ALL, hasKnowledge: false, hasIndex: false, hasRag: false },
      { hasOmnirag: false },
    );
    for (const step of steps.slice(0, 3))
      expect(step).toMatchObject({ action: null, blocked: NEEDS_OMNIRAG });
    expect(isSetupComplete(steps)).toBe(true);
    expect(isSetupComplete(setupSteps({ ...ALL, isTried: false }, { hasOmnirag: false }))).toBe(false);
  });
});
