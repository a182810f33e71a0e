import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  isGeneratedDisclaimer,
  MASK_PATTERN_MAX,
  MASK_PATTERN_NAME_MAX,
  MASK_PATTERNS_MAX,
  MASK_PRESET_IDS,
  MASK_PRESETS,
  type MaskPattern,
  type MaskPresetId,
  maskingDisclaimer,
  presetOf,
  presetPattern,
  shownDisclaimer,
} from '@omnibot/contracts';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ConfigForm } from './config-editor-context';

const PATTERNS = 'masking.patterns';

/**
 * The masking settings: what kinds of sensitive text are masked (the presets, checked by the product beyond a
 * regular expression), the tenant's own patterns, and the disclaimer that follows what is masked while it is the
 * generated one.
 */
export function MaskingSection({ form }: { form: ConfigForm }) {
  const values = form.getValues();
  const patterns = values.masking.patterns;
  const chosen = new Set(patterns.map((pattern) => presetOf(pattern)?.id));
  const custom = patterns
    .map((pattern, index) => ({ pattern, index }))
    .filter(({ pattern }) => presetOf(pattern) === null);
  const disclaimer = shownDisclaimer(values);
  const generated = isGeneratedDisclaimer(values.feedback.disclaimer);

  const setPresets = (ids: string[]) => {
    const next: MaskPattern[] = [
      // A preset already in the list keeps its name; a new one takes the preset's.
      ...MASK_PRESET_IDS.filter((id) => ids.includes(id)).map(
        (id) => patterns.find((pattern) => presetOf(pattern)?.id === id) ?? presetPattern(id),
      ),
      ...custom.map(({ pattern }) => pattern),
    ];
    form.setFieldValue(PATTERNS, next);
    if (generated) form.setFieldValue('feedback.disclaimer', maskingDisclaimer(next));
  };

  return (
    <Stack gap="sm">
      <Switch
        label="Mask sensitive text"
        description="Text matching a pattern is replaced before it leaves the visitor's browser, and again on the server."
        key={form.key('masking.enableMasking')}
        {...form.getInputProps('masking.enableMasking', { type: 'checkbox' })}
      />
      <TextInput
        label="Mask character"
        maw={160}
        key={form.key('masking.maskCharacter')}
        {...form.getInputProps('masking.maskCharacter')}
      />
      <Checkbox.Group
        label="What to mask"
        description="Card numbers and IBANs are masked only when their checksum is right, so order numbers stay readable."
        value={MASK_PRESET_IDS.filter((id) => chosen.has(id))}
        onChange={setPresets}
      >
        <Stack gap="xs" mt="xs">
          {MASK_PRESET_IDS.map((id: MaskPresetId) => (
            <Checkbox
              key={id}
              value={id}
              label={MASK_PRESETS[id].name}
              description={MASK_PRESETS[id].description}
              disabled={!chosen.has(id) && patterns.length >= MASK_PATTERNS_MAX}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <Text size="sm" c="dimmed">
        {generated
          ? `The feedback disclaimer follows what is masked: “${disclaimer}”`
          : 'The feedback disclaimer is your own text; change it under Feedback so it names what is masked.'}
      </Text>
      <Title order={3} size="h6">
        Your own patterns
      </Title>
      {custom.length === 0 && (
        <Text size="sm" c="dimmed">
          No patterns of your own. Add one for anything else, such as customer numbers.
        </Text>
      )}
      {custom.map(({ index }, position) => {
        const number = position + 1;
        return (
          <Card key={index} withBorder padding="sm" radius="sm" aria-label={`Pattern ${number}`}>
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <Stack gap="xs" style={{ flex: 1 }}>
                <TextInput
                  label={`Name (pattern ${number})`}
                  maxLength={MASK_PATTERN_NAME_MAX}
                  key={form.key(`${PATTERNS}.${index}.name`)}
                  {...form.getInputProps(`${PATTERNS}.${index}.name`)}
                />
                <TextInput
                  label={`Regular expression (pattern ${number})`}
                  maxLength={MASK_PATTERN_MAX}
                  key={form.key(`${PATTERNS}.${index}.regExpression`)}
                  {...form.getInputProps(`${PATTERNS}.${index}.regExpression`)}
                />
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={`Remove pattern ${number}`}
                onClick={() => form.removeListItem(PATTERNS, index)}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          </Card>
        );
      })}
      <Group justify="space-between" gap="sm">
        <Text size="xs" c="dimmed">
          {patterns.length} of {MASK_PATTERNS_MAX} patterns
        </Text>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          disabled={patterns.length >= MASK_PATTERNS_MAX}
          onClick={() => form.insertListItem(PATTERNS, { name: '', regExpression: '' })}
        >
          Add pattern
        </Button>
      </Group>
    </Stack>
  );
}
