import { Alert, Anchor, NumberInput, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { BOT_ENGINES, type BotEngine, LIVE_AGENT_PROVIDERS, WIDGET_TEXT_MAX } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../../../lib/session';
import {
  useChatbotIntegrationOptions,
  useChatModelOptions,
  useContactCentreOptions,
  usePromptOptions,
  useRagOptions,
  useScheduleOptions,
} from '../../api/bots-api';
import { botPaths } from '../../utils/bot-paths';
import type { ConfigForm } from './config-editor-context';
import { FlagField } from './config-fields';

/** Every engine a bot answers with, in the order they are offered. */
const BOT_ENGINE_LABELS: Record<BotEngine, string> = {
  builtin: 'Built-in: answers from a RAG of your knowledge',
  openai: 'Chat model: a model from /model with a prompt, no retrieval',
  dialogflowcx: 'Dialogflow CX: agents of a Dialogflow CX integration',
  lex: 'Amazon Lex V2: a Lex bot answers',
  bedrock: 'Amazon Bedrock: a Bedrock model answers, from the RAG when one is chosen',
};
const ENGINE_OPTIONS = BOT_ENGINES.map((value) => ({ value, label: BOT_ENGINE_LABELS[value] }));

const CLOUD_ENGINE_LABELS = {
  dialogflowcx: 'Dialogflow CX',
  lex: 'Amazon Lex',
  bedrock: 'Amazon Bedrock',
} as const;
type CloudEngine = keyof typeof CLOUD_ENGINE_LABELS;
const isCloudEngine = (engine: string): engine is CloudEngine => engine in CLOUD_ENGINE_LABELS;

/**
 * The Dialogflow CX, Lex or Bedrock integration a bot answers with (its keys, region and agents, bot or model), with
 * a link to add one. Without one the bot answers with its fallback text.
 */
function CloudEnginePicker({ form, engine }: { form: ConfigForm; engine: CloudEngine }) {
  const options = useChatbotIntegrationOptions(engine);
  const items = options.data?.items ?? [];
  const current = form.getValues().engines.integration_id;
  const label = CLOUD_ENGINE_LABELS[engine];
  return (
    <Stack gap={4}>
      <Select
        label={`${label} integration`}
        description="The integration's settings answer; without one the bot says its fallback text."
        placeholder={options.isPending ? 'Loading the integrations…' : `Choose a ${label} integration`}
        data={withCurrent(
          items.map((item) => ({ value: item.id, label: item.name })),
          current,
          'Another integration',
        )}
        clearable
        nothingFoundMessage="No integration has that name"
        key={form.key('engines.integration_id')}
        {...form.getInputProps('engines.integration_id')}
      />
      {options.data && items.length === 0 && (
        <Alert color="yellow" icon={<IconAlertCircle />} title={`No ${label} integration yet`}>
          Until you add one, this bot answers with its fallback text.{' '}
          <Anchor component={Link} to={botPaths.addChatbotEngine(engine)} inherit>
            Add {label} integration
          </Anchor>
        </Alert>
      )}
    </Stack>
  );
}

/** Where a conversation goes when the visitor asks for a person. */
const LIVE_AGENT_LABELS: Record<(typeof LIVE_AGENT_PROVIDERS)[number], string> = {
  inbox: 'Agent inbox (built in)',
  genesys: 'Genesys Cloud',
  connect: 'Amazon Connect',
};
const LIVE_AGENT_OPTIONS = LIVE_AGENT_PROVIDERS.map((value) => ({ value, label: LIVE_AGENT_LABELS[value] }));

/**
 * The contact-centre integration a bot hands over to when its provider is Genesys Cloud or Amazon Connect: only
 * those of the chosen provider, with a link to add one. Without one the bot offers no hand-over.
 */
function ContactCentrePicker({ form, provider }: { form: ConfigForm; provider: 'genesys' | 'connect' }) {
  const options = useContactCentreOptions(provider);
  const items = options.data?.items ?? [];
  const current = form.getValues().engines.liveagent_integration_id;
  const label = LIVE_AGENT_LABELS[provider];
  return (
    <Stack gap={4}>
      <Select
        label={`${label} integration`}
        description="The contact centre's settings; without one visitors are not offered a person."
        placeholder={options.isPending ? 'Loading the integrations…' : `Choose a ${label} integration`}
        data={withCurrent(
          items.map((item) => ({ value: item.id, label: item.name })),
          current,
          'An integration that no longer exists',
        )}
        clearable
        nothingFoundMessage="No integration has that name"
        key={form.key('engines.liveagent_integration_id')}
        {...form.getInputProps('engines.liveagent_integration_id')}
      />
      {options.data && items.length === 0 && (
        <Alert color="yellow" icon={<IconAlertCircle />} title={`No ${label} integration yet`}>
          Until you add one, this bot does not offer a person.{' '}
          <Anchor component={Link} to={botPaths.addContactCentre(provider)} inherit>
            Add {label} integration
          </Anchor>
        </Alert>
      )}
      {items.length > 0 && (
        <Anchor component={Link} to={botPaths.addContactCentre(provider)} size="sm">
          Add another {label} integration
        </Anchor>
      )}
    </Stack>
  );
}

/** The options with the stored value added under `label` when none of them is it, so a select still shows it. */
function withCurrent(options: { value: string; label: string }[], current: string | null, label: string) {
  if (current === null || options.some((option) => option.value === current)) return options;
  return [...options, { value: current, label }];
}

/**
 * What answers the visitors: the engine, with its RAG or its chat model, prompt and limits, the fallback text and
 * whether a live agent is offered. What the organisation lacks to answer (Omni RAG, a RAG, a chat model) is said.
 */
export function EnginesSection({ form }: { form: ConfigForm }) {
  const session = useSession();
  const hasOmnirag = session?.features.includes('omnirag') ?? false;
  const engines = form.getValues().engines;
  const isBuiltin = engines.botEngine === 'builtin';
  const isOpenAi = engines.botEngine === 'openai';
  const cloudEngine = isCloudEngine(engines.botEngine) ? engines.botEngine : null;
  const rags = useRagOptions(hasOmnirag);
  const prompts = usePromptOptions();
  const models = useChatModelOptions();
  const schedules = useScheduleOptions();
  return (
    <Stack gap="sm">
      <Select
        label="Bot engine"
        description="What answers the visitors' questions."
        data={ENGINE_OPTIONS}
        allowDeselect={false}
        key={form.key('engines.botEngine')}
        {...form.getInputProps('engines.botEngine')}
        onChange={(value) => {
          if (value === null || value === engines.botEngine) return;
          form.setFieldValue('engines.botEngine', value as typeof engines.botEngine);
          // An integration answers for one engine: another engine starts without one.
          form.setFieldValue('engines.integration_id', null);
        }}
      />
      {cloudEngine && <CloudEnginePicker key={cloudEngine} form={form} engine={cloudEngine} />}
      {(isBuiltin || cloudEngine === 'bedrock') && hasOmnirag && (
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
      <FlagField
        form={form}
        path="engines.enableliveagent"
        label="Offer a live agent"
        description="Visitors see “Talk to an agent” when the bot has no answer."
      />
      {engines.enableliveagent && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Hand over to"
            description="Genesys Cloud and Amazon Connect need a contact-centre integration."
            data={LIVE_AGENT_OPTIONS}
            allowDeselect={false}
            key={form.key('engines.liveagent')}
            {...form.getInputProps('engines.liveagent')}
            onChange={(value) => {
              form.setFieldValue('engines.liveagent', (value ?? 'inbox') as typeof engines.liveagent);
              // An integration belongs to one provider: a new provider starts without one.
              form.setFieldValue('engines.liveagent_integration_id', null);
            }}
          />
          <NumberInput
            label="Hand over after this many fallbacks in a row"
            description="0 = never: only the visitor asks for a person."
            allowDecimal={false}
            allowNegative={false}
            min={0}
            max={10}
            clampBehavior="strict"
            key={form.key('engines.handoverAfterFallbacks')}
            {...form.getInputProps('engines.handoverAfterFallbacks')}
          />
          <Select
            label="Business hours"
            description="A person is offered only while this schedule is open. None: at any time."
            placeholder={schedules.isPending ? 'Loading schedules…' : 'At any time'}
            data={withCurrent(
              (schedules.data?.items ?? []).map((schedule) => ({ value: schedule.id, label: schedule.name })),
              engines.schedule_id,
              'No longer available',
            )}
            searchable
            clearable
            nothingFoundMessage="No schedule with that name"
            key={form.key('engines.schedule_id')}
            {...form.getInputProps('engines.schedule_id')}
          />
          <Textarea
            label="Offline text"
            description="Shown instead of “Talk to an agent” while the schedule is closed."
            rows={2}
            resize="vertical"
            maxLength={WIDGET_TEXT_MAX}
            key={form.key('engines.offlineText')}
            {...form.getInputProps('engines.offlineText')}
          />
        </SimpleGrid>
      )}
      {engines.enableliveagent && engines.liveagent !== 'inbox' && (
        <ContactCentrePicker key={engines.liveagent} form={form} provider={engines.liveagent} />
      )}
      {engines.enableliveagent && schedules.data?.items.length === 0 && (
        <Text size="sm" c="dimmed">
          No schedule yet: a person is offered at any time.{' '}
          <Anchor component={Link} to={botPaths.schedules} inherit>
            Add business hours
          </Anchor>{' '}
          to offer one only while your team works.
        </Text>
      )}
    </Stack>
  );
}
