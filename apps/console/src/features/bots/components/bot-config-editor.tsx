import { Accordion, Badge, Grid, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Bot } from '@omnibot/contracts';
import { type ReactNode, useMemo, useState } from 'react';
import { ConfigFieldset } from '../../../components/access/config-fieldset';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { FormActions } from '../../../components/forms/form-actions';
import { TOAST_DELAY_MS } from '../../../components/ui/notify';
import { useCanConfigure } from '../../../lib/permissions';
import { type ConfigGroup, groupHasError, previewConfigOf } from '../utils/config-form';
import { useConfigForm } from '../utils/use-config-form';
import { AppearanceSection } from './bot-config/appearance-section';
import { BehaviourSection } from './bot-config/behaviour-section';
import { CloudAccountsSection } from './bot-config/cloud-accounts-section';
import { EditedBot } from './bot-config/config-editor-context';
import { GeolocationSection } from './bot-config/geolocation-section';
import { EnginesSection } from './bot-config/engines-section';
import { FeedbackSection } from './bot-config/feedback-section';
import { IdentitySection } from './bot-config/identity-section';
import { LauncherSection } from './bot-config/launcher-section';
import { MaskingSection } from './bot-config/masking-section';
import { TitlesSection } from './bot-config/titles-section';
import { TranslationSection } from './bot-config/translation-section';
import { WelcomeSection } from './bot-config/welcome-section';
import { WindowSection } from './bot-config/window-section';
import { type PreviewColorScheme, WidgetPreview } from './widget-preview';

/** The editor's sections and the configuration groups each one edits. */
const SECTIONS = [
  { value: 'identity', label: 'Identity', groups: ['identity'] },
  { value: 'welcome', label: 'Welcome', groups: ['welcome'] },
  { value: 'behaviour', label: 'Behaviour', groups: ['behaviour', 'language', 'aws', 'google'] },
  { value: 'translation', label: 'Translation', groups: ['language', 'engines', 'libretranslate'] },
  { value: 'cloud', label: 'Cloud accounts', groups: ['google', 'aws'] },
  { value: 'geolocation', label: 'Geolocation', groups: ['geojs'] },
  { value: 'appearance', label: 'Appearance', groups: ['appearance'] },
  { value: 'feedback', label: 'Feedback', groups: ['feedback'] },
  { value: 'titles', label: 'Titles', groups: ['titles'] },
  { value: 'masking', label: 'Masking', groups: ['masking'] },
  { value: 'engines', label: 'Engines', groups: ['engines', 'openai'] },
  { value: 'launcher', label: 'Launcher', groups: ['launcher'] },
  { value: 'window', label: 'Window', groups: ['window'] },
] as const satisfies readonly { value: string; label: string; groups: readonly ConfigGroup[] }[];

type SectionValue = (typeof SECTIONS)[number]['value'];

const CUSTOMIZE_GROUPS: readonly ConfigGroup[] = SECTIONS.flatMap((section) => section.groups);

const sectionsWithErrors = (errors: Record<string, unknown>): SectionValue[] =>
  SECTIONS.filter((section) => section.groups.some((group) => groupHasError(errors, group))).map(
    (section) => section.value,
  );

/**
 * /bot/customize's editor: the bot's whole widget configuration in sections, checked with the contracts' schema
 * before it is saved, beside a live preview of the real widget (below the form on narrow screens). A role that may
 * not configure opens the same sections with their fields disabled and no save.
 */
export function BotConfigEditor({ bot }: { bot: Bot }) {
  const canConfigure = useCanConfigure();
  const { form, save, isSaving } = useConfigForm(bot, {
    groups: CUSTOMIZE_GROUPS,
    successMessage: `The settings of "${bot.name}" were saved. Sites that embed it show them within a minute.`,
    failureTitle: 'The settings were not saved',
  });
  const [open, setOpen] = useState<string[]>(['identity']);
  const [scheme, setScheme] = useState<PreviewColorScheme>('light');
  const values = form.getValues();
  const preview = useMemo(() => previewConfigOf(values), [values]);
  const invalidSections = sectionsWithErrors(form.errors);
  // A section with a message in it stays open, whether the schema or the server found it.
  const openSections = [...new Set<string>([...open, ...invalidSections])];

  const onInvalid = () => {
    notifications.show({
      color: 'red',
      title: 'Not saved yet',
      message: 'Some settings need attention: see the highlighted fields.',
      autoClose: TOAST_DELAY_MS,
    });
  };

  const body: Record<SectionValue, ReactNode> = {
    identity: <IdentitySection form={form} />,
    welcome: <WelcomeSection form={form} botId={bot.id} />,
    behaviour: <BehaviourSection form={form} />,
    translation: <TranslationSection form={form} />,
    cloud: <CloudAccountsSection form={form} />,
    geolocation: <GeolocationSection form={form} />,
    appearance: <AppearanceSection form={form} scheme={scheme} onSchemeChange={setScheme} />,
    feedback: <FeedbackSection form={form} />,
    titles: <TitlesSection form={form} />,
    masking: <MaskingSection form={form} />,
    engines: <EnginesSection form={form} />,
    launcher: <LauncherSection form={form} />,
    window: <WindowSection form={form} />,
  };

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, sm: 7 }}>
        <form onSubmit={form.onSubmit((data) => void save(data), onInvalid)} noValidate>
          <EditedBot.Provider value={bot.id}>
            <Stack gap="md">
              {!canConfigure && <ReadOnlyNotice />}
              <Accordion multiple value={openSections} onChange={setOpen} variant="separated" radius="md">
                {SECTIONS.map((section) => (
                  <Accordion.Item key={section.value} value={section.value}>
                    <Accordion.Control>
                      <Group gap="xs">
                        <Text fw={500}>{section.label}</Text>
                        {invalidSections.includes(section.value) && (
                          <Badge color="red" variant="light" size="sm">
                            Check
                          </Badge>
                        )}
                      </Group>
                    </Accordion.Control>
                    <Accordion.Panel>
                      <ConfigFieldset>{body[section.value]}</ConfigFieldset>
                    </Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
              {canConfigure && <FormActions submitLabel="Save" isSaving={isSaving} />}
            </Stack>
          </EditedBot.Provider>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 5 }}>
        <div style={{ position: 'sticky', top: 'calc(var(--app-shell-header-height, 0px) + 1rem)' }}>
          <WidgetPreview
            botId={bot.id}
            config={preview}
            colorScheme={scheme}
            onColorSchemeChange={setScheme}
          />
        </div>
      </Grid.Col>
    </Grid>
  );
}
