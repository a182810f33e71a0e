import { Select } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { languageName, languageOptions } from '../../../lib/languages';
import { useAgentPreferences, useUpdateAgentPreferences } from '../api/inbox-api';

/**
 * "My language": the language the signed-in person reads visitors in and writes in. Bots that translate between
 * visitors and agents translate into it; it is kept on the server for the person, so it follows them to any browser.
 */
export function AgentLanguageSelect() {
  const preferences = useAgentPreferences();
  const save = useUpdateAgentPreferences();
  const current = preferences.data?.language ?? '';

  const change = async (language: string | null) => {
    if (language === null || language === current) return;
    try {
      await save.mutateAsync({ language });
      notifySuccess(`Translated messages now reach you in ${languageName(language)}.`);
    } catch (error) {
      notifyError(error, 'Your language was not saved');
    }
  };

  return (
    <Select
      label="My language"
      description="Visitors' messages are translated into it when a bot translates for its agents."
      leftSection={<IconLanguage size={16} aria-hidden="true" />}
      data={languageOptions(current)}
      value={current === '' ? null : current}
      placeholder={preferences.isError ? 'Not loaded' : 'Loading…'}
      disabled={preferences.isPending || save.isPending}
      error={preferences.isError ? 'Your language could not be loaded.' : undefined}
      allowDeselect={false}
      searchable
      maw="20rem"
      w="100%"
      onChange={(value) => void change(value)}
    />
  );
}
