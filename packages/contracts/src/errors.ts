import { z } from 'zod';
import { AUTH_ERROR_CODES, AUTH_MESSAGES } from './auth';
import { STORAGE_ERRORS, type StorageErrorCode } from './files';
import { SAFE_TEXT_MESSAGE } from './text';

/** Every error response body. */
export const ErrorBodySchema = z.object({ code: z.string(), message: z.string() });

/** 409: an invitation to an address whose domain belongs to an organisation outside the inviter's subtree. */
export const EMAIL_DOMAIN_TAKEN = {
  code: 'domain_taken',
  message: 'This e-mail domain belongs to another organisation.',
} as const;

/** The API's general error codes, with the message a client shows when the answer carries none. */
const API_ERRORS = {
  invalid_argument: 'The request is not valid.',
  invalid_json: 'The request body is not valid JSON.',
  invalid_utf8: 'The request body is not valid UTF-8.',
  invalid_text: SAFE_TEXT_MESSAGE,
  invalid_number: 'Numbers must be finite, not -0, and whole numbers at most 2^53 - 1 in size.',
  json_too_deep: 'The request body is nested too deeply.',
  invalid_url: 'The URL has a malformed %-escape or is not valid UTF-8.',
  uri_too_long: 'The query string is too long.',
  invalid_content_length: 'The Content-Length header does not match the request body.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'This content type is not accepted here.',
  bad_request: 'The request could not be understood.',
  unauthenticated: 'Sign in to continue.',
  forbidden: 'You do not have access to this resource.',
  origin_not_allowed: 'This request comes from a site that may not act here.',
  not_found: 'Not found',
  conflict: 'This conflicts with the current data; reload and try again.',
  domain_taken: 'Another organisation already uses this domain.',
  last_administrator:
    'This is the last active administrator of the organisation. Make someone else an administrator first.',
  role_not_allowed: 'You cannot give this role.',
  subscription_not_held: 'The organisation cannot pass on a subscription it does not hold.',
  too_many_requests: AUTH_MESSAGES.tooManyRequests,
  internal: AUTH_MESSAGES.internal,
} as const;

/** Identity codes beyond the spec's list (AUTH_ERROR_CODES). */
const EXTRA_AUTH_ERRORS = {
  'auth/no-profile': 'Your account has no profile in any organisation. Contact your administrator.',
  'auth/tenant-disabled': 'This organisation is deactivated.',
  // better-auth refusals passed on as `auth/<its code>` (see the server's auth routes).
  'auth/invalid-origin': 'This request comes from a site that may not act here.',
  'auth/missing-or-null-origin': 'This request comes from a site that may not act here.',
  'auth/error': 'Request refused',
} as const;

/** Why a knowledge source failed: fetching a tenant's URL or reading a document (stored on the source, shown in the console). */
const INGESTION_ERRORS = {
  'secret/endpoint-changed':
    'The API key must be entered again when the URL changes: a stored key is only sent to the address it was entered for.',
  'fetch/invalid-url': 'The address is not a valid web address.',
  'fetch/unsupported-scheme': 'Only http and https addresses can be fetched.',
  'fetch/credentials-in-url': 'Addresses with a user name or password cannot be fetched.',
  'fetch/blocked-host': 'This host may not be fetched.',
  'fetch/blocked-address': 'The address is on a private or reserved network, which is not allowed.',
  'fetch/dns-failure': 'The host name could not be found.',
  'fetch/connection-failed': 'The site could not be reached.',
  'fetch/timeout': 'The site took too long to answer.',
  'fetch/aborted': 'The fetch was cancelled.',
  'fetch/too-large': 'The page is larger than the size limit.',
  'fetch/too-many-redirects': 'The address redirects too many times.',
  'fetch/http-status': 'The site answered with an error status.',
  'fetch/unsupported-encoding': 'The site answered in an encoding that cannot be read.',
  'fetch/bad-response': 'The site sent a response that could not be read.',
  'parse/corrupt': 'The document is damaged and could not be read.',
  'parse/encrypted': 'The document is password-protected; upload a copy without a password.',
  'parse/unsupported-type': 'This kind of document cannot be read.',
  'parse/empty': 'The document contains no text.',
  'parse/too-large': 'The document is larger than the size limit.',
} as const;

/** Model connections: sharing, stored keys, and the provider's answer to a call, in plain words. */
const MODEL_ERRORS = {
  'model/unknown-tenant': 'The model cannot be shared with an organisation outside your reach.',
  'model/key-unreadable': 'The stored API key cannot be decrypted; enter the key again.',
  'provider/unauthorized': 'The provider refused the API key.',
  'provider/unreachable': 'The provider could not be reached.',
  'provider/timeout': 'The provider did not answer in time.',
  'provider/bad-response': 'The provider sent an answer that could not be read.',
  'provider/rate-limited': 'The provider is limiting requests; try again later.',
  'provider/error': 'The provider answered with an error.',
} as const;

/** Refusals of the prompt routes beyond the general ones. */
const PROMPT_ERRORS = {
  'prompt/name-taken': 'Another prompt of your organisation already has this name.',
  'prompt/in-use': 'RAGs use this prompt; point them at another prompt first.',
} as const;

/** Refusals of the knowledge routes, and why ingestion failed beyond fetching and parsing. */
const KNOWLEDGE_ERRORS = {
  'knowledge/name-taken': 'Another knowledge base of your organisation already has this name.',
  'ingest/timeout': 'Reading the source took too long; try again or split it into smaller parts.',
  'ingest/interrupted': 'Reading the source was interrupted too many times; re-sync it to try again.',
  'ingest/failed': 'The source could not be read because of an unexpected error; re-sync it to try again.',
  'ingest/file-missing': 'The file is no longer in your storage.',
  'knowledge/sync-not-supported': 'Only web page and sitemap sources can be re-synced on a schedule.',
} as const;

/** Refusals of the index routes beyond the general ones. */
const INDEX_ERRORS = {
  'index/name-taken': 'Another index of your organisation already has this name.',
  'index/unknown-knowledge': 'A chosen knowledge base does not exist in your organisation.',
  'index/embedding-model-required': 'Vector and hybrid retrieval need an embedding model.',
  'index/unknown-embedding-model': 'The embedding model is not offered to your organisation.',
  'index/in-use': 'RAGs use this index; point them at another index first.',
  'embed/failed': 'The chunks could not be embedded; check the embedding model and try again.',
} as const;

/** Refusals of the RAG routes beyond the general ones. */
const RAG_ERRORS = {
  'rag/name-taken': 'Another RAG of your organisation already has this name.',
  'rag/unknown-index': 'The index does not exist in your organisation.',
  'rag/unknown-prompt': 'The prompt does not exist in your organisation.',
  'rag/unknown-model': 'The chat model is not offered to your organisation.',
} as const;

/** Refusals of the bot routes beyond the general ones. */
const BOT_ERRORS = {
  'bot/name-taken': 'Another bot of your organisation already has this name.',
  'bot/unknown-rag': 'The RAG does not exist in your organisation.',
  'bot/unknown-model': 'The chat model is not offered to your organisation.',
  'bot/unknown-prompt': 'The prompt does not exist in your organisation.',
  'bot/invalid-config': 'The bot configuration is not valid.',
  'bot/text-too-long': 'The message is longer than 4000 characters.',
  'bot/unknown-integration': 'The chatbot integration does not exist in your organisation.',
  'bot/unknown-liveagent-integration': 'The contact-centre integration does not exist in your organisation.',
  'bot/liveagent-integration-mismatch':
    "The contact-centre integration is for another provider than the bot's live-agent provider.",
  'bot/not-an-image': 'Only an image or a sound can be shown in the widget.',
  'bot/unknown-schedule': 'The schedule does not exist in your organisation.',
} as const;

/** Refusals of the schedule (business hours) routes beyond the general ones. */
const SCHEDULE_ERRORS = {
  'schedule/name-taken': 'Another schedule of your organisation already has this name.',
  'schedule/in-use': 'Bots use this schedule for hand-over; pick another schedule for them first.',
} as const;

/** Refusals of a bot's test suite routes beyond the general ones. */
const BOT_TEST_ERRORS = {
  'bot-test/run-in-progress': 'A test run of this bot is already queued or running; wait for it to finish.',
  'bot-test/too-many-cases': 'A bot holds at most 200 test cases; delete some first.',
  'bot-test/no-cases': 'The bot has no test cases yet; add one first.',
  'bot-test/no-expectation': 'Give an expected text, an expected source, or both.',
  'bot-test/unknown-source': 'The knowledge source does not exist in your organisation.',
} as const;

/** Refusals of the bot template routes beyond the general ones. */
const BOT_TEMPLATE_ERRORS = {
  'bot-template/name-taken': 'Another template of your organisation already has this name.',
  'bot-template/unknown-bot': 'The bot does not exist in your organisation.',
} as const;

/** Refusals of the integration routes beyond the general ones. */
const INTEGRATION_ERRORS = {
  'integration/name-taken': 'Another integration of your organisation already has this name.',
  'integration/unknown-rag': 'The RAG does not exist in your organisation.',
  'integration/in-use': 'Bots use this integration; point them at another engine first.',
  'integration/engine-mismatch': 'These settings are for another engine; an integration keeps its engine.',
  'integration/rag-not-ready': 'The index of the RAG is not ready to answer yet.',
  'integration/secret-unreadable':
    'The stored secret cannot be decrypted (the installation secret changed); enter it again.',
  'dialogflow/invalid-key': 'The service account key is not a valid Google service-account key.',
  'dialogflow/no-match': 'The Dialogflow agent did not understand the message.',
  'dialogflow/forbidden': 'The service account may not use this Dialogflow agent.',
  'dialogflow/not-found': 'The Dialogflow agent does not exist.',
  'dialogflow/fallback-agent': 'The default Dialogflow agent failed; the fallback agent answered.',
} as const;

/** Refusals of the public widget routes (no sign-in; a visitor talking to a bot). */
export const WIDGET_ERRORS = {
  'widget/bot-not-found': 'This bot does not exist or is not available.',
  'widget/origin-not-allowed': 'This bot may not be used from this website.',
  'widget/text-too-long': 'The text is too long.',
  'widget/invalid-conversation': 'This conversation is not valid for this bot; start a new one.',
  'widget/rate-limited': 'Too many requests; wait a moment and try again.',
  'widget/unknown-message': 'This message is not part of the conversation.',
  'widget/no-origin': 'Only a web page can report where the widget was loaded (it names its Origin).',
  'language/not-configured': 'This bot offers no translation.',
  'language/provider-error': 'The translation service failed.',
  'tts/not-configured': 'This bot offers no server voice.',
  'tts/provider-error': 'The speech service failed.',
  'geolocation/off': 'Geolocation is off for this bot.',
  'geolocation/provider-error': 'The geolocation service failed.',
} as const;

/** Refusals of hand-over to a person: the visitor's side and the agent inbox. */
export const LIVE_AGENT_ERRORS = {
  'handover/not-offered': 'This bot does not hand over to a person.',
  'handover/closed': 'This conversation has ended; start a new one.',
  'handover/out-of-hours': 'No agent is available outside business hours.',
  'inbox/already-claimed': 'Another agent already answers this conversation.',
  'inbox/not-waiting': 'This conversation is not waiting for a person.',
  'inbox/not-yours': 'You do not answer this conversation; claim it first.',
  'handover/provider-refused':
    'The contact centre refused to take the conversation. The bot keeps answering; please try again later.',
  'handover/provider-busy':
    'The contact centre is busy. The bot keeps answering; please try again in a few minutes.',
  'handover/provider-unavailable':
    'The contact centre cannot be reached right now. The bot keeps answering; please try again later.',
} as const;

/** Refusals of the case-summary configuration routes beyond the general ones. */
export const CASE_SUMMARY_ERRORS = {
  'case-summary/name-taken': 'Another case-summary configuration of your organisation already has this name.',
  'case-summary/unknown-bot': 'A chosen bot does not exist in your organisation.',
  'case-summary/bot-taken': 'A chosen bot is already summarised by another configuration.',
  'case-summary/unknown-model': 'The chat model is not offered to your organisation.',
} as const;

/** Codes the console gives failures that never reached the API or answered without a body. */
const CLIENT_ERRORS = {
  network_error: 'The server could not be reached. Check your connection.',
  http_error: 'The request failed.',
} as const;

type AuthErrorCode = (typeof AUTH_ERROR_CODES)[keyof typeof AUTH_ERROR_CODES];
export type ErrorCode =
  | keyof typeof API_ERRORS
  | AuthErrorCode
  | keyof typeof EXTRA_AUTH_ERRORS
  | StorageErrorCode
  | keyof typeof INGESTION_ERRORS
  | keyof typeof MODEL_ERRORS
  | keyof typeof PROMPT_ERRORS
  | keyof typeof KNOWLEDGE_ERRORS
  | keyof typeof INDEX_ERRORS
  | keyof typeof RAG_ERRORS
  | keyof typeof BOT_ERRORS
  | keyof typeof WIDGET_ERRORS
  | keyof typeof BOT_TEST_ERRORS
  | keyof typeof BOT_TEMPLATE_ERRORS
  | keyof typeof INTEGRATION_ERRORS
  | keyof typeof SCHEDULE_ERRORS
  | keyof typeof LIVE_AGENT_ERRORS
  | keyof typeof CASE_SUMMARY_ERRORS
  | keyof typeof CLIENT_ERRORS;

const authErrors = Object.fromEntries(
  (Object.keys(AUTH_ERROR_CODES) as Array<keyof typeof AUTH_ERROR_CODES>).map((key) => [
    AUTH_ERROR_CODES[key],
    AUTH_MESSAGES[key],
  ]),
) as Record<AuthErrorCode, string>;
const storageErrors = Object.fromEntries(
  Object.entries(STORAGE_ERRORS).map(([code, { message }]) => [code, message]),
) as Record<StorageErrorCode, string>;

/** The one error catalogue: every code the server answers (and the console's own), with its message. */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, string>> = {
  ...API_ERRORS,
  ...authErrors,
  ...EXTRA_AUTH_ERRORS,
  ...storageErrors,
  ...INGESTION_ERRORS,
  ...MODEL_ERRORS,
  ...PROMPT_ERRORS,
  ...KNOWLEDGE_ERRORS,
  ...INDEX_ERRORS,
  ...RAG_ERRORS,
  ...BOT_ERRORS,
  ...WIDGET_ERRORS,
  ...BOT_TEST_ERRORS,
  ...BOT_TEMPLATE_ERRORS,
  ...INTEGRATION_ERRORS,
  ...SCHEDULE_ERRORS,
  ...LIVE_AGENT_ERRORS,
  ...CASE_SUMMARY_ERRORS,
  ...CLIENT_ERRORS,
};

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code);
