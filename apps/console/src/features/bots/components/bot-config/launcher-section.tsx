import { NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { WIDGET_LABEL_MAX, WIDGET_TEXT_MAX } from '@omnibot/contracts';
import type { ConfigForm } from './config-editor-context';
import { ColourField, FlagField, ImageField } from './config-fields';

/** The button that opens the chat: where it sits, how it looks, its icons and logos, and its texts. */
export function LauncherSection({ form }: { form: ConfigForm }) {
  return (
    <Stack gap="sm">
      <FlagField
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
        <ColourField form={form} path="launcher.background" label="Launcher background" />
        <ColourField form={form} path="launcher.headerColor" label="Header text colour" />
        <TextInput
          label="Header font"
          key={form.key('launcher.headerFontFamily')}
          {...form.getInputProps('launcher.headerFontFamily')}
        />
      </SimpleGrid>
      <ImageField form={form} path="launcher.launcherIcon.url" label="Launcher icon" />
      <ImageField form={form} path="launcher.launcherIcon.urlDark" label="Launcher icon (dark)" />
      <ImageField form={form} path="launcher.logo" label="Logo" />
      <ImageField form={form} path="launcher.logoDark" label="Logo (dark)" />
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
