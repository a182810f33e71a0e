import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOT_ID } from '../../../test/bot-fixture';
import { stubAuthApi } from '../../../test/fake-auth-api';
import { COMPLETE_SETUP, setupHandler, type SetupState } from '../../../test/setup-fixture';
import { getSetupProgress } from './get-setup-progress';

const CONSOLE = 'https://omnibot.example.test';
const read = (state: SetupState, hasOmnirag = true) => {
  const api = stubAuthApi({ signedIn: true, handle: setupHandler(state) });
  return { progress: getSetupProgress({ hasOmnirag, consoleOrigin: CONSOLE }), api };
};

describe('getSetupProgress', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('finds nothing done in an empty organisation', async () => {
    expect(await read({}).progress).toEqual({
      hasKnowledge: false,
      hasIndex: false,
      hasRag: false,
      bot: null,
      isInstalled: false,
      isTried: false,
    });
  });

  it('ticks every step from the lists of a set-up organisation', async () => {
    expect(await read(COMPLETE_SETUP).progress).toEqual({
      hasKnowledge: true,
      hasIndex: true,
      hasRag: true,
      bot: { id: BOT_ID, name: 'Help bot' },
      isInstalled: true,
      isTried: true,
    });
  });

  it('counts a knowledge base only once one of its sources is ready', async () => {
    expect((await read({ sourceState: null }).progress).hasKnowledge).toBe(false);
    expect((await read({ sourceState: 'indexing' }).progress).hasKnowledge).toBe(false);
    expect((await read({ sourceState: 'ready' }).progress).hasKnowledge).toBe(true);
  });

  it('does not count the demo page, on the console origin, as an install', async () => {
    const progress = await read({ ...COMPLETE_SETUP, origins: [CONSOLE] }).progress;
    expect(progress.isInstalled).toBe(false);
    expect(progress.isTried).toBe(true);
  });

  it('reads no Omni RAG list without the subscription', async () => {
    const { progress, api } = read(COMPLETE_SETUP, false);
    expect(await progress).toMatchObject({ hasKnowledge: false, hasIndex: false, hasRag: false });
    expect(api.calls().filter((call) => /\/v1\/(knowledge|indexes|rags)/.test(call))).toEqual([]);
  });
});
