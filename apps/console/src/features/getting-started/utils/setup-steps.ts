import type { SetupProgress } from '../api/get-setup-progress';

export type SetupStepId = 'knowledge' | 'index' | 'rag' | 'bot' | 'install' | 'try';

export interface SetupStep {
  id: SetupStepId;
  title: string;
  description: string;
  done: boolean;
  /** Where the step is done; `external` for the server's own pages (the demo page), outside the console. */
  action: { label: string; href: string; external?: boolean } | null;
  /** Why the step cannot be taken here (no link is offered then). */
  blocked?: string;
}

export const NEEDS_OMNIRAG = 'Needs the Omni RAG subscription. Ask your administrator to add it.';
const NEEDS_BOT = 'Create a bot first.';

const botQuery = (botId: string) => new URLSearchParams({ bot_id: botId }).toString();

/**
 * The getting-started steps in order (knowledge base -> index -> RAG -> bot -> install -> try it), each ticked from
 * `progress`. Without Omni RAG the first three cannot be taken here and say why instead of linking to a refusal.
 */
export function setupSteps(progress: SetupProgress, { hasOmnirag }: { hasOmnirag: boolean }): SetupStep[] {
  const omnirag = (action: SetupStep['action']) =>
    hasOmnirag ? { action } : { action: null, blocked: NEEDS_OMNIRAG };
  const { bot } = progress;
  return [
    {
      id: 'knowledge',
      title: 'Add a knowledge base',
      description: 'Add the pages, files or text your bot answers from, and wait until a source is ready.',
      done: progress.hasKnowledge,
      ...omnirag({ label: 'Open knowledge bases', href: '/knowledge' }),
    },
    {
      id: 'index',
      title: 'Create an index',
      description: 'An index makes your knowledge bases searchable, by keywords or by meaning.',
      done: progress.hasIndex,
      ...omnirag({ label: 'Open indexes', href: '/index' }),
    },
    {
      id: 'rag',
      title: 'Create a RAG',
      description:
        'A RAG answers questions from an index, with a chat model or with sentences from the sources.',
      done: progress.hasRag,
      ...omnirag({ label: 'Open RAGs', href: '/rag' }),
    },
    {
      id: 'bot',
      title: 'Create a bot',
      description: 'The bot is the assistant your visitors talk to; choose the RAG it answers from.',
      done: bot !== null,
      action: { label: 'Create a bot', href: '/bot/customize' },
    },
    {
      id: 'install',
      title: 'Install it on your site',
      description:
        'Paste the snippet into your pages. This step is ticked once a page of your site loads the bot.',
      done: progress.isInstalled,
      ...(bot
        ? { action: { label: 'Get the snippet', href: `/bot/install?${botQuery(bot.id)}` } }
        : { action: null, blocked: NEEDS_BOT }),
    },
    {
      id: 'try',
      title: 'Try it',
      description: 'Open the demo page and ask your bot a question, as a visitor would.',
      done: progress.isTried,
      ...(bot
        ? {
            action: {
              label: 'Open the demo page',
              href: `/demo?${new URLSearchParams({ bot: bot.id }).toString()}`,
              external: true,
            },
          }
        : { action: null, blocked: NEEDS_BOT }),
    },
  ];
}

/** Done when every step that can be taken here is done (steps a subscription blocks do not hold it back). */
export const isSetupComplete = (steps: readonly SetupStep[]) =>
  steps.every((step) => step.done || step.blocked === NEEDS_OMNIRAG);
