import {
  isServiceAccountKey,
  type PublicWidgetConfig,
  publicWidgetConfig,
  type WidgetConfig,
  type WidgetConfigPatch,
  WidgetConfigSchema,
} from '@omnibot/contracts';

export type ConfigGroup = keyof WidgetConfig;

/** Field errors by dotted path (`identity.name`, `welcome.welcomeMenu.0.label`), as Mantine's form keys them. */
type ConfigErrors = Record<string, string>;

/** The contracts schema's messages for a configuration, each on the path of the field it is about. */
export function configErrors(values: WidgetConfig): ConfigErrors {
  const result = WidgetConfigSchema.safeParse(values);
  const errors: ConfigErrors = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= issue.message;
  }
  // A pasted key that is not a key file would only fail when a visitor needs it.
  if (!isServiceAccountKey(values.google.serviceAccountKey)) {
    errors['google.serviceAccountKey'] ??= SERVICE_ACCOUNT_KEY_MESSAGE;
  }
  return errors;
}

export const SERVICE_ACCOUNT_KEY_MESSAGE =
  'Paste the whole service account key file: JSON with project_id, client_email and private_key.';

/** The first message on `path` or inside it (a list's items), for a field that edits the list whole. */
export function errorWithin(errors: Record<string, unknown>, path: string): string | undefined {
  const key = Object.keys(errors).find((candidate) => candidate === path || candidate.startsWith(`${path}.`));
  const message = key === undefined ? undefined : errors[key];
  return typeof message === 'string' ? message : undefined;
}

/** Whether any error is on a field of `group`. */
export const groupHasError = (errors: Record<string, unknown>, group: string) =>
  Object.keys(errors).some((path) => path === group || path.startsWith(`${group}.`));

/**
 * The configuration patch of the groups of `values` that differ from `initial`: each changed group is sent whole,
 * so a secret inside it goes back exactly as received (masked), which keeps the stored one.
 */
export function configPatchOf(
  values: WidgetConfig,
  initial: WidgetConfig,
  groups: readonly ConfigGroup[] = Object.keys(values) as ConfigGroup[],
): WidgetConfigPatch {
  const patch: Record<string, Record<string, unknown>> = {};
  for (const group of groups) {
    if (JSON.stringify(values[group]) !== JSON.stringify(initial[group])) {
      patch[group] = values[group];
    }
  }
  return patch;
}

/**
 * What the widget would receive for these (possibly unfinished) values: the public projection with no server
 * services; null while the values are not a valid configuration (the preview keeps its last good state).
 */
export function previewConfigOf(values: WidgetConfig): PublicWidgetConfig | null {
  const parsed = WidgetConfigSchema.safeParse(values);
  return parsed.success ? publicWidgetConfig(parsed.data, { translate: false, tts: false }) : null;
}
