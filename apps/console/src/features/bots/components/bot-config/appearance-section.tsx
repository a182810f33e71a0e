import { Group, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { PreviewColorScheme } from '../widget-preview';
import type { ConfigForm } from './config-editor-context';
import { ColourField } from './config-fields';

/** The widget's colour scheme, its colours for the light or the dark mode being edited, and its fonts. */
export function AppearanceSection({
  form,
  scheme,
  onSchemeChange,
}: {
  form: ConfigForm;
  scheme: PreviewColorScheme;
  onSchemeChange: (scheme: PreviewColorScheme) => void;
}) {
  const dark = scheme === 'dark' ? 'Dark' : '';
  const colour = (path: string, label: string) => (
    <ColourField key={`${path}${dark}`} form={form} path={`${path}${dark}`} label={label} />
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
