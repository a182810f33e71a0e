import { SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { WIDGET_DESCRIPTION_MAX, WIDGET_NAME_MAX } from '@omnibot/contracts';
import type { ConfigForm } from './config-editor-context';
import { ImageField } from './config-fields';

/** Who the bot is: its names, where it lives, its description and its avatar. */
export function IdentitySection({ form }: { form: ConfigForm }) {
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
      <ImageField
        form={form}
        path="identity.avatarUri"
        label="Avatar"
        description="The bot's picture in the header."
      />
    </Stack>
  );
}
