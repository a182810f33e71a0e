import type { FastifyInstance } from 'fastify';
import type { Env } from '../../env';
import type { FilesHandle } from '../files/files.module';
import type { LiveTranslationDeps } from '../live-agents/agent-translation';
import type { LiveBus } from '../live-agents/live-bus';
import type { ProviderRelay } from '../live-agents/provider-relay';
import type { AnswerDeps } from '../rag/rag-answer';
import type { SpeechDeps } from '../speech/speech.service';
import type { CaseSummaryWriter } from '../case-summaries/case-summaries.service';
import { liveRoutes } from './live.routes';
import { visitorSpeechRoutes } from './visitor-speech.routes';
import { visitorRoutes } from './visitor.routes';
import type { WidgetAccess } from './widget-access';
import { widgetConfigRoutes } from './widget-config.routes';
import { registerWidgetFiles } from './widget-files';

export interface WidgetDeps {
  env: Env;
  /** The rules every public widget route shares: servable bot, allowed origins and CORS, rate limits. */
  access: WidgetAccess;
  /** How the builtin engine answers from a RAG: the RAG answer route's own dependencies. */
  answering: AnswerDeps;
  /** The bots' translators and voices. */
  speech: SpeechDeps;
  /** Translation between visitors and the people answering them, for bots that ask for it. */
  liveTranslation: LiveTranslationDeps;
  files: FilesHandle;
  /** What this process hears of live conversations (a person answering), from every process. */
  bus: LiveBus;
  /** Starts the sessions of conversations handed to a contact centre; null in a process that holds none. */
  relay: Pick<ProviderRelay, 'wake'> | null;
  /** Folder of the built widget (widget.js and app/); null serves none. */
  widgetDir: string | null;
  /** Writes case summaries once a hand-over has committed. */
  summaries: CaseSummaryWriter;
}

/**
 * Everything a website visitor's browser reaches, none of it signed in: the loader, the chat page and /demo, the
 * public configuration and images, messages, feedback, sightings, hand-over to a person and its live stream,
 * translation and the server voice.
 */
export async function widgetRoutes(app: FastifyInstance, deps: WidgetDeps) {
  const { env, access, answering, speech, files } = deps;
  const { db } = answering;
  await widgetConfigRoutes(app, { db, access, files });
  await visitorRoutes(app, {
    access,
    answering,
    speech,
    summaries: deps.summaries,
    relay: deps.relay,
    liveTranslation: deps.liveTranslation,
  });
  await visitorSpeechRoutes(app, { env, access, speech });
  await liveRoutes(app, { db, access, bus: deps.bus, summaries: deps.summaries, relay: deps.relay });
  await registerWidgetFiles(app, { db, widgetDir: deps.widgetDir });
}
