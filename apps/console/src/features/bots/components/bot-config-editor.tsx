import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  ColorInput,
  Grid,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  BOT_ENGINES,
  type Bot,
  WIDGET_DESCRIPTION_MAX,
  WIDGET_LABEL_MAX,
  WIDGET_NAME_MAX,
  WIDGET_SUGGESTIONS_MAX,
  WIDGET_TEXT_MAX,
  type WidgetConfig,
} from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { FormActions } from '../../../components/forms/form-actions';
import { notifications } from '@mantine/notifications';
import { TOAST_DELAY_MS } from '../../../components/ui/notify';
import { useSession } from '../../../lib/session';
import { useChatModelOptions, usePromptOptions, useRagOptions } from '../api/bots-api';
import { botPaths } from '../utils/bot-paths';
import { type ConfigGroup, errorWithin, groupHasError, previewConfigOf } from '../utils/config-form';
import { useConfigForm } from '../utils/use-config-form';
import { ImageUrlField } from './image-url-field';
import { MaskingSection } from './masking-section';
import { TranslationSection } from './translation-section';
import { type PreviewColorScheme, WidgetPreview } from './widget-preview';

type Form = UseFormReturnType<WidgetConfig>;

/** The editor's sections and the configuration groups each one edits. */
const SECTIONS = [
  { value: 'identity', label: 'Identity', groups: ['identity'] },
  { value: 'welcome', label: 'Welcome', groups: ['welcome'] },
  { value: 'behaviour', label: 'Behaviour', groups: ['behaviour', 'language'] },
  { value: 'translation', label: 'Translation', groups: ['language', 'engines', 'libretranslate'] },
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

/** The engines that answer today; a stored engine that does not yet is still shown under its name. */
const ENGINE_OPTIONS = [
  { value: 'builtin', label: 'Built-in: answers from a RAG of your knowledge' },
  { value: 'openai', label: 'Chat model: a model from /model with a prompt, no retrieval' },
];

function withCurrent(options: { value: string; label: string }[], current: string | null, label: string) {
  if (current === null || options.some((option) => option.value === current)) return options;
  return [...options, { value: current, label }];
}

function Colour({ form, path, label }: { form: Form; path: string; label: string }) {
  return <ColorInput label={label} format="hex" key={form.key(path)} {...form.getInputProps(path)} />;
}

function Flag({
  form,
  path,
  label,
  description,
}: {
  form: Form;
  path: string;
  label: string;
  description?: string;
}) {
  return (
    <Switch
      label={label}
      description={description}
      key={form.key(path)}
      {...form.getInputProps(path, { type: 'checkbox' })}
    />
  );
}

/** The bot being edited, for the fields that make links of it (images picked from the gallery). */
const EditedBot = createContext('');

function Image({
  form,
  path,
  label,
  description,
}: {
  form: Form;
  path: string;
  label: string;
  description?: string;
}) {
  const props = form.getInputProps(path);
  const botId = useContext(EditedBot);
  return (
    <ImageUrlField
      botId={botId}
      label={label}
      description={description}
      value={String(props.value ?? '')}
      onChange={(value) => form.setFieldValue(path, value)}
      onBlur={() => form.validateField(path)}
      error={props.error as ReactNode}
    />
  );
}

function IdentitySection({ form }: { form: Form }) {
  const description = form.getValues().identity.description;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          description="Shown in the widget's header."
          required
          maxLength={WIDGET_NAME_MAX}
          key={form.key('identity.name')}
          {...form.getInputProps('identity.name')}
        />
        <TextInput
          label="Bot display name"
          description="Above the bot's messages."
          maxLength={WIDGET_NAME_MAX}
          key={form.key('identity.displayName')}
          {...form.getInputProps('identity.displayName')}
        />
        <TextInput
          label="Visitor display name"
          description="Above the visitor's messages."
          maxLength={WIDGET_NAME_MAX}
          key={form.key('identity.botUserName')}
          {...form.getInputProps('identity.botUserName')}
        />
        <TextInput
          label="Bot name"
          description="How the bot names itself in its prompt."
          maxLength={WIDGET_NAME_MAX}
          key={form.key('identity.botName')}
          {...form.getInputProps('identity.botName')}
        />
        <TextInput
          label="Widget name"
          maxLength={WIDGET_NAME_MAX}
          key={form.key('identity.widgetname')}
          {...form.getInputProps('identity.widgetname')}
        />
        <TextInput
          label="Website"
          placeholder="https://www.example.com"
          key={form.key('identity.website')}
          {...form.getInputProps('identity.website')}
        />
      </SimpleGrid>
      <Textarea
        label="Description"
        description={`Under the name in the header: ${description.length} / ${WIDGET_DESCRIPTION_MAX} characters`}
        rows={3}
        resize="vertical"
        key={form.key('identity.description')}
        {...form.getInputProps('identity.description')}
      />
      <Image
        form={form}
        path="identity.avatarUri"
        label="Avatar"
        description="The bot's picture in the header."
      />
    </Stack>
  );
}

function WelcomeSection({ form, botId }: { form: Form; botId: string }) {
  return (
    <Stack gap="sm">
      <Flag form={form} path="welcome.welcomeText_enabled" label="Greet visitors with the welcome text" />
      <Textarea
        label="Welcome text"
        rows={3}
        resize="vertical"
        maxLength={WIDGET_TEXT_MAX}
        key={form.key('welcome.welcomeText')}
        {...form.getInputProps('welcome.welcomeText')}
      />
      <TagsInput
        label="Start suggestions"
        description={`Chips a visitor can click to ask at once (at most ${WIDGET_SUGGESTIONS_MAX}); press Enter after each.`}
        maxTags={WIDGET_SUGGESTIONS_MAX}
        key={form.key('welcome.start_suggestions')}
        {...form.getInputProps('welcome.start_suggestions')}
        error={errorWithin(form.errors, 'welcome.start_suggestions')}
      />
      <Flag form={form} path="welcome.enablePopupMenu" label="Show the popup menu" />
      <Text size="sm">
        The welcome menu and the popup menu are edited under{' '}
        <Anchor component={Link} to={botPaths.message(botId)} inherit>
          Welcome Message
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

function BehaviourSection({ form }: { form: Form }) {
  return (
    <Stack gap="sm">
      <Flag
        form={form}
        path="behaviour.sessionStorage"
        label="Keep the conversation across page loads"
        description="For the visitor's browser tab (session storage)."
      />
      <Flag form={form} path="behaviour.microphone_enabled" label="Voice input (microphone)" />
      <Flag form={form} path="behaviour.speaker_enabled" label="Read answers aloud (speaker)" />
      <Flag form={form} path="behaviour.muted" label="Start muted" />
      <Select
        label="Voice"
        description="Native uses the visitor's browser; server uses the speech service when one is configured."
        data={[
          { value: 'native', label: 'Native (browser)' },
          { value: 'server', label: 'Server' },
        ]}
        allowDeselect={false}
        key={form.key('behaviour.voice')}
        {...form.getInputProps('behaviour.voice')}
      />
      <Flag form={form} path="behaviour.msgRecvTone_enabled" label="Play a tone when an answer arrives" />
      <TextInput
        label="Tone (audio file URL)"
        placeholder="https://"
        key={form.key('behaviour.msgRecvTone')}
        {...form.getInputProps('behaviour.msgRecvTone')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Default language"
          description="A code such as en, fr or pt-BR."
          key={form.key('language.default_language')}
          {...form.getInputProps('language.default_language')}
        />
        <TextInput
          label="Fallback language"
          key={form.key('language.fallback_language')}
          {...form.getInputProps('language.fallback_language')}
        />
      </SimpleGrid>
    </Stack>
  );
}

function AppearanceSection({
  form,
  scheme,
  onSchemeChange,
}: {
  form: Form;
  scheme: PreviewColorScheme;
  onSchemeChange: (scheme: PreviewColorScheme) => void;
}) {
  const dark = scheme === 'dark' ? 'Dark' : '';
  const colour = (path: string, label: string) => (
    <Colour key={`${path}${dark}`} form={form} path={`${path}${dark}`} label={label} />
  );
  return (
    <Stack gap="sm">
      <Select
        label="Colour scheme of the widget"
        data={[
          { value: 'auto', label: "Follow the visitor's device" },
          { value: 'light', label: 'Always light' },
          { value: 'dark', label: 'Always dark' },
        ]}
        allowDeselect={false}
        key={form.key('appearance.colorScheme')}
        {...form.getInputProps('appearance.colorScheme')}
      />
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={500}>
          Colours for
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Colours to edit"
          value={scheme}
          onChange={(value) => onSchemeChange(value === 'dark' ? 'dark' : 'light')}
          data={[
            { value: 'light', label: 'Light mode' },
            { value: 'dark', label: 'Dark mode' },
          ]}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {colour('appearance.backgroundColor', 'Window background')}
        {colour('appearance.userBubble.backgroundColor', 'Visitor bubble')}
        {colour('appearance.userBubble.textColor', 'Visitor bubble text')}
        {colour('appearance.botBubble.backgroundColor', 'Bot bubble')}
        {colour('appearance.botBubble.textColor', 'Bot bubble text')}
        {colour('appearance.button.backgroundColor', 'Buttons')}
        {colour('appearance.button.textColor', 'Button text')}
        {colour('appearance.button.linkColor', 'Links')}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Bubble font"
          key={form.key('appearance.bubble.fontFamily')}
          {...form.getInputProps('appearance.bubble.fontFamily')}
        />
        <TextInput
          label="Bubble font size"
          description="8px to 48px"
          key={form.key('appearance.bubble.fontSize')}
          {...form.getInputProps('appearance.bubble.fontSize')}
        />
        <TextInput
          label="Button font"
          key={form.key('appearance.button.fontFamily')}
          {...form.getInputProps('appearance.button.fontFamily')}
        />
        <TextInput
          label="Button font size"
          description="8px to 48px"
          key={form.key('appearance.button.fontSize')}
          {...form.getInputProps('appearance.button.fontSize')}
        />
      </SimpleGrid>
    </Stack>
  );
}

function FeedbackSection({ form }: { form: Form }) {
  const label = (path: string, text: string) => (
    <TextInput label={text} maxLength={WIDGET_LABEL_MAX} key={form.key(path)} {...form.getInputProps(path)} />
  );
  return (
    <Stack gap="sm">
      <Flag form={form} path="behaviour.enableUserFeedback" label="Ask for feedback on each answer" />
      <Flag form={form} path="feedback.enableComment" label="Let visitors add a comment" />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {label('feedback.button1Text', 'First button')}
        {label('feedback.button2Text', 'Second button')}
        {label('feedback.button3Text', 'Third button')}
      </SimpleGrid>
      <Textarea
        label="Disclaimer"
        description="Shown above the comment box. While it is the generated text, it names what Masking masks."
        rows={3}
        resize="vertical"
        maxLength={WIDGET_TEXT_MAX}
        key={form.key('feedback.disclaimer')}
        {...form.getInputProps('feedback.disclaimer')}
      />
    </Stack>
  );
}

function TitlesSection({ form }: { form: Form }) {
  const titles = [
    ['titles.inputTitle', 'Message input'],
    ['titles.sendTitle', 'Send button'],
    ['titles.microphoneTitle', 'Microphone button'],
    ['titles.recognitionUnavailable', 'No speech recognition'],
    ['titles.muteTitle', 'Mute button'],
    ['titles.unMuteTitle', 'Unmute button'],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {titles.map(([path, text]) => (
        <TextInput
          key={form.key(path)}
          label={text}
          maxLength={WIDGET_LABEL_MAX}
          {...form.getInputProps(path)}
        />
      ))}
    </SimpleGrid>
  );
}

function EnginesSection({ form }: { form: Form }) {
  const session = useSession();
  const hasOmnirag = session?.features.includes('omnirag') ?? false;
  const engines = form.getValues().engines;
  const isBuiltin = engines.botEngine === 'builtin';
  const isOpenAi = engines.botEngine === 'openai';
  const rags = useRagOptions(hasOmnirag);
  const prompts = usePromptOptions();
  const models = useChatModelOptions();
  const engineOptions = withCurrent(
    ENGINE_OPTIONS,
    engines.botEngine,
    `${engines.botEngine} (not available yet: answers with the fallback text)`,
  );
  return (
    <Stack gap="sm">
      <Select
        label="Bot engine"
        description="What answers the visitors' questions."
        data={engineOptions.filter((option) => (BOT_ENGINES as readonly string[]).includes(option.value))}
        allowDeselect={false}
        key={form.key('engines.botEngine')}
        {...form.getInputProps('engines.botEngine')}
      />
      {isBuiltin && hasOmnirag && (
        <Select
          label="RAG"
          description="The RAG whose knowledge the bot answers from."
          placeholder={rags.isPending ? 'Loading RAGs…' : 'Choose a RAG'}
          data={withCurrent(
            (rags.data?.items ?? []).map((rag) => ({ value: rag.id, label: rag.name })),
            engines.rag_id,
            'No longer available',
          )}
          searchable
          clearable
          nothingFoundMessage="No RAG with that name"
          key={form.key('engines.rag_id')}
          {...form.getInputProps('engines.rag_id')}
        />
      )}
      {isBuiltin && hasOmnirag && rags.data?.items.length === 0 && (
        <Alert color="yellow" icon={<IconAlertCircle />} title="No RAG yet">
          The built-in engine answers from a RAG.{' '}
          <Anchor component={Link} to={botPaths.rags} inherit>
            Create a RAG
          </Anchor>{' '}
          first.
        </Alert>
      )}
      {isBuiltin && !hasOmnirag && (
        <Alert color="yellow" icon={<IconAlertCircle />} title="Built-in answers need Omni RAG">
          Your organisation has no Omni RAG subscription, so this bot answers with its fallback text. Choose
          the chat model engine, or ask your administrator for Omni RAG.
        </Alert>
      )}
      {isOpenAi && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Chat model"
              placeholder={models.isPending ? 'Loading models…' : 'Choose a chat model'}
              data={withCurrent(
                (models.data?.items ?? []).map((model) => ({
                  value: model.id,
                  label: `${model.name} (${model.model_name})`,
                })),
                engines.model_id,
                'No longer available',
              )}
              searchable
              clearable
              key={form.key('engines.model_id')}
              {...form.getInputProps('engines.model_id')}
            />
            <Select
              label="Prompt"
              description="Optional: without one a short default system prompt is used."
              placeholder="Default prompt"
              data={withCurrent(
                (prompts.data?.items ?? []).map((prompt) => ({ value: prompt.id, label: prompt.name })),
                engines.prompt_id,
                'No longer available',
              )}
              searchable
              clearable
              key={form.key('engines.prompt_id')}
              {...form.getInputProps('engines.prompt_id')}
            />
            <NumberInput
              label="Max tokens"
              allowDecimal={false}
              min={1}
              key={form.key('openai.max_tokens')}
              {...form.getInputProps('openai.max_tokens')}
            />
            <NumberInput
              label="Temperature"
              decimalScale={2}
              step={0.1}
              min={0}
              max={2}
              key={form.key('openai.temperature')}
              {...form.getInputProps('openai.temperature')}
            />
          </SimpleGrid>
          {models.data?.items.length === 0 && (
            <Alert color="yellow" icon={<IconAlertCircle />} title="No chat model offered">
              Add a chat model under Models first; until then this bot answers with its fallback text.
            </Alert>
          )}
        </>
      )}
      <Textarea
        label="Fallback text"
        description="Said when the engine has no answer."
        rows={3}
        resize="vertical"
        maxLength={WIDGET_TEXT_MAX}
        key={form.key('engines.fallbackText')}
        {...form.getInputProps('engines.fallbackText')}
      />
      <Flag
        form={form}
        path="engines.enableliveagent"
        label="Offer a live agent"
        description="Visitors see “Talk to an agent” when the bot has no answer."
      />
    </Stack>
  );
}

function LauncherSection({ form }: { form: Form }) {
  return (
    <Stack gap="sm">
      <Flag
        form={form}
        path="launcher.enableLauncher"
        label="Show the launcher button"
        description="Off for sites that open the chat from their own button."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Position"
          data={[
            { value: 'right', label: 'Bottom right' },
            { value: 'left', label: 'Bottom left' },
          ]}
          allowDeselect={false}
          key={form.key('launcher.position')}
          {...form.getInputProps('launcher.position')}
        />
        <NumberInput
          label="Offset from the edge (%)"
          min={0}
          max={50}
          decimalScale={1}
          key={form.key('launcher.positionPct')}
          {...form.getInputProps('launcher.positionPct')}
        />
        <NumberInput
          label="Border radius"
          allowDecimal={false}
          min={0}
          max={50}
          key={form.key('launcher.borderRadius')}
          {...form.getInputProps('launcher.borderRadius')}
        />
        <NumberInput
          label="Icon width (px)"
          allowDecimal={false}
          min={24}
          max={128}
          key={form.key('launcher.launcherIcon.width')}
          {...form.getInputProps('launcher.launcherIcon.width')}
        />
        <NumberInput
          label="Icon height (px)"
          allowDecimal={false}
          min={24}
          max={128}
          key={form.key('launcher.launcherIcon.height')}
          {...form.getInputProps('launcher.launcherIcon.height')}
        />
        <Colour form={form} path="launcher.background" label="Launcher background" />
        <Colour form={form} path="launcher.headerColor" label="Header text colour" />
        <TextInput
          label="Header font"
          key={form.key('launcher.headerFontFamily')}
          {...form.getInputProps('launcher.headerFontFamily')}
        />
      </SimpleGrid>
      <Image form={form} path="launcher.launcherIcon.url" label="Launcher icon" />
      <Image form={form} path="launcher.launcherIcon.urlDark" label="Launcher icon (dark)" />
      <Image form={form} path="launcher.logo" label="Logo" />
      <Image form={form} path="launcher.logoDark" label="Logo (dark)" />
      <Textarea
        label="Info text"
        description="The bubble beside the launcher that introduces the assistant."
        rows={3}
        resize="vertical"
        maxLength={WIDGET_TEXT_MAX}
        key={form.key('launcher.infoText')}
        {...form.getInputProps('launcher.infoText')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Label while open"
          maxLength={WIDGET_LABEL_MAX}
          key={form.key('launcher.openText')}
          {...form.getInputProps('launcher.openText')}
        />
        <TextInput
          label="Label while closed"
          maxLength={WIDGET_LABEL_MAX}
          key={form.key('launcher.closeText')}
          {...form.getInputProps('launcher.closeText')}
        />
      </SimpleGrid>
    </Stack>
  );
}

function WindowSection({ form }: { form: Form }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NumberInput
        label="Width (px)"
        description="280 to 1200; the window fills small screens."
        allowDecimal={false}
        key={form.key('window.width')}
        {...form.getInputProps('window.width')}
      />
      <NumberInput
        label="Height (px)"
        description="400 to 1600"
        allowDecimal={false}
        key={form.key('window.height')}
        {...form.getInputProps('window.height')}
      />
    </SimpleGrid>
  );
}

/**
 * /bot/customize's editor: the bot's whole widget configuration in sections, checked with the contracts' schema
 * before it is saved, beside a live preview of the real widget (below the form on narrow screens).
 */
export function BotConfigEditor({ bot }: { bot: Bot }) {
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
                    <Accordion.Panel>{body[section.value]}</Accordion.Panel>
                  </Accordion.Item>
                ))}
              </Accordion>
              <FormActions submitLabel="Save" isSaving={isSaving} />
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
