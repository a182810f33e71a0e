import { Alert, Anchor, Card, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import type { Bot } from '@omnibot/contracts';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ConfigFieldset } from '../../../components/access/config-fieldset';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { FormActions } from '../../../components/forms/form-actions';
import { languageOptions } from '../../../lib/languages';
import { useCanConfigure } from '../../../lib/permissions';
import { useRagOptions } from '../api/bots-api';
import { botPaths } from '../utils/bot-paths';
import { useConfigForm } from '../utils/use-config-form';
import { TranslationSection } from './bot-config/translation-section';

/**
 * /bot/config/rag: a bot's languages, automatic translation and its translator, and the RAG its built-in engine
 * answers from; shown with its fields disabled and no save to a role that may not configure.
 */
export function LanguageRagForm({ bot }: { bot: Bot }) {
  const canConfigure = useCanConfigure();
  const { form, save, isSaving } = useConfigForm(bot, {
    groups: ['language', 'engines', 'libretranslate'],
    successMessage: 'The language and RAG settings were saved.',
    failureTitle: 'The language and RAG settings were not saved',
  });
  const rags = useRagOptions();
  const values = form.getValues();
  const ragOptions = (rags.data?.items ?? []).map((rag) => ({ value: rag.id, label: rag.name }));
  const ragId = values.engines.rag_id;
  if (ragId !== null && !ragOptions.some((option) => option.value === ragId)) {
    ragOptions.push({ value: ragId, label: rags.isPending ? 'Loading…' : 'No longer available' });
  }
  return (
    <form onSubmit={form.onSubmit((data) => void save(data))} noValidate>
      <Stack gap="lg" maw={760}>
        {!canConfigure && <ReadOnlyNotice />}
        <ConfigFieldset>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="md">
              <Stack gap="sm">
                <Title order={2} size="h4">
                  Languages
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Select
                    label="Default language"
                    description="The language the widget starts in."
                    data={languageOptions(values.language.default_language)}
                    searchable
                    allowDeselect={false}
                    key={form.key('language.default_language')}
                    {...form.getInputProps('language.default_language')}
                  />
                  <Select
                    label="Fallback language"
                    description="Used when the visitor's language is not supported."
                    data={languageOptions(values.language.fallback_language)}
                    searchable
                    allowDeselect={false}
                    key={form.key('language.fallback_language')}
                    {...form.getInputProps('language.fallback_language')}
                  />
                </SimpleGrid>
                <TranslationSection form={form} />
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="md">
              <Stack gap="sm">
                <Title order={2} size="h4">
                  RAG
                </Title>
                {rags.isError && (
                  <Alert color="red" icon={<IconAlertCircle />} title="The RAGs could not be loaded">
                    Reload the page to try again.
                  </Alert>
                )}
                {rags.data?.items.length === 0 && (
                  <Alert color="yellow" icon={<IconAlertCircle />} title="No RAG yet">
                    A RAG answers from your knowledge.{' '}
                    <Anchor component={Link} to={botPaths.rags} inherit>
                      Create a RAG
                    </Anchor>{' '}
                    first, then choose it here.
                  </Alert>
                )}
                <Select
                  label="The RAG this bot answers from"
                  placeholder={
                    rags.isPending ? 'Loading RAGs…' : 'No RAG: the bot answers with its fallback text'
                  }
                  data={ragOptions}
                  searchable
                  clearable
                  nothingFoundMessage="No RAG with that name"
                  key={form.key('engines.rag_id')}
                  {...form.getInputProps('engines.rag_id')}
                />
                {values.engines.botEngine !== 'builtin' && (
                  <Alert color="blue" icon={<IconInfoCircle />} title="Not used by this bot's engine">
                    The RAG is used by the built-in engine; this bot answers with “{values.engines.botEngine}
                    ”. Change the engine under{' '}
                    <Anchor component={Link} to={botPaths.customize(bot.id)} inherit>
                      Customize › Engines
                    </Anchor>
                    .
                  </Alert>
                )}
              </Stack>
            </Card>
          </Stack>
        </ConfigFieldset>
        {canConfigure && <FormActions submitLabel="Save" isSaving={isSaving} />}
      </Stack>
    </form>
  );
}
