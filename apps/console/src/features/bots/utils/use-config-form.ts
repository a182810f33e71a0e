import { useForm } from '@mantine/form';
import type { Bot, WidgetConfig } from '@omnibot/contracts';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { errorCode } from '../../../lib/error-message';
import { useUpdateBot } from '../api/bots-api';
import { type ConfigGroup, configErrors, configPatchOf } from './config-form';

/** The field a refusal of the bot routes is about, so its message is shown there. */
const FIELD_OF_ERROR: Record<string, string> = {
  'bot/unknown-rag': 'engines.rag_id',
  'bot/unknown-model': 'engines.model_id',
  'bot/unknown-prompt': 'engines.prompt_id',
  'bot/unknown-schedule': 'engines.schedule_id',
};

/** `config.identity.name: The name is required.` -> the field path and the message. */
function invalidConfigField(message: string): [string, string] | null {
  const match = /^config\.([\w.]+): (.*)$/s.exec(message);
  return match?.[1] !== undefined && match[2] !== undefined ? [match[1], match[2]] : null;
}

interface ConfigFormOptions {
  /** The groups this screen edits: only those are sent, and only when changed. */
  groups: readonly ConfigGroup[];
  successMessage: string;
  failureTitle: string;
  onSaved?: (bot: Bot) => void;
}

/**
 * A form over a bot's whole configuration, checked with the contracts' schema before it is sent; a save sends the
 * changed groups of `groups` as a configuration patch, and a refusal is shown on its field and as a toast.
 */
export function useConfigForm(
  bot: Bot,
  { groups, successMessage, failureTitle, onSaved }: ConfigFormOptions,
) {
  const form = useForm<WidgetConfig>({
    initialValues: bot.config,
    validate: configErrors,
    validateInputOnBlur: true,
  });
  const update = useUpdateBot();

  const save = async (values: WidgetConfig) => {
    const patch = configPatchOf(values, form.getInitialValues(), groups);
    if (Object.keys(patch).length === 0) {
      notifySuccess('Nothing changed since the last save.');
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: bot.id, body: { config: patch } });
      form.setInitialValues(saved.config);
      form.setValues(saved.config);
      form.resetDirty(saved.config);
      notifySuccess(successMessage);
      onSaved?.(saved);
    } catch (error) {
      const code = errorCode(error);
      if (error instanceof Error) {
        const field = code === undefined ? undefined : FIELD_OF_ERROR[code];
        const invalid = code === 'bot/invalid-config' ? invalidConfigField(error.message) : null;
        if (field !== undefined) form.setFieldError(field, error.message);
        else if (invalid) form.setFieldError(invalid[0], invalid[1]);
      }
      notifyError(error, failureTitle);
    }
  };

  return { form, save, isSaving: update.isPending };
}
