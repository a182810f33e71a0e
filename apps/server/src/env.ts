import { z } from 'zod';
import { parseAllowEntry } from './lib/guarded-http/address-policy';

const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  PRODUCT_NAME: z.string().min(1).max(60).default('Omnibot'),
  COMPANY_NAME: z.string().min(1).max(120).default('Omnibot'),
  ENVIRONMENT_BADGE: z.string().min(1).max(30).default('PRODUCTION'),
  PLATFORM_TENANT_NAME: z.string().min(1).max(120).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  ADMIN_PASSWORD: z.string().min(10, 'must be at least 10 characters').optional(),
  ALLOWED_EMAIL_DOMAINS: csv,
  TRUSTED_ORIGINS: csv,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
  // Answers of RAGs (question, answer, chunks used) are kept this many days, then swept.
  RAG_ANSWER_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RAG_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  // How long a live message waits for its translation (visitor <-> agent) before it is sent untranslated.
  LIVE_TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  RAG_ANSWER_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
  // Translations and speech a visitor's address may ask for per minute (each one is a paid provider call).
  WIDGET_SPEECH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  // Where the built widget lives (widget.js and app/); apps/widget/dist of the repository by default.
  WIDGET_DIST_DIR: z.string().min(1).optional(),
  // Messages a staff member may send bots from the console per minute.
  BOT_CHAT_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
  // Messages a visitor may send a bot per minute: per client address, and per conversation (or address before one).
  WIDGET_RATE_LIMIT_IP: z.coerce.number().int().min(1).max(100_000).default(60),
  WIDGET_RATE_LIMIT_CONVERSATION: z.coerce.number().int().min(1).max(100_000).default(20),
  // Visitor conversations are kept this many days after their last message, then swept.
  CONVERSATION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Verified API credentials are kept this long per process (0: never), forgotten at once on any change.
  CREDENTIAL_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  // Files (storage module): local DATA_DIR/files by default, any S3-compatible store when S3_BUCKET is set.
  FILE_MAX_BYTES: z.coerce.number().int().min(1).default(104_857_600), // 100 MiB
  TENANT_QUOTA_BYTES: z.coerce.number().int().min(0).default(1_073_741_824), // 1 GiB
  UPLOAD_EXPIRY_HOURS: z.coerce.number().positive().max(720).default(24),
  UPLOAD_SWEEP_MINUTES: z.coerce.number().positive().max(1440).default(30),
  FILE_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(604_800).default(3600),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // Outbound fetches of tenant-supplied addresses reach only public addresses, plus these entries.
  FETCH_ALLOW_ADDRESSES: csv.superRefine((entries, context) => {
    for (const entry of entries) {
      try {
        parseAllowEntry(entry);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }
  }),
});

export type Env = z.infer<typeof EnvSchema> & { PUBLIC_URL: string };

export class EnvError extends Error {}

/** Parses configuration once; a bad value stops start-up with the variable's name. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  return { ...env, PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '') };
}
