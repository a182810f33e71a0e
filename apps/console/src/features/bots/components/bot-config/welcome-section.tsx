import { Anchor, Stack, TagsInput, Text, Textarea } from '@mantine/core';
import { WIDGET_SUGGESTIONS_MAX, WIDGET_TEXT_MAX } from '@omnibot/contracts';
import { Link } from 'react-router';
import { botPaths } from '../../utils/bot-paths';
import { errorWithin } from '../../utils/config-form';
import type { ConfigForm } from './config-editor-context';
import { FlagField } from './config-fields';

/** How a conversation opens: the welcome text and the start suggestions; the menus are edited elsewhere. */
export function WelcomeSection({ form, botId }: { form: ConfigForm; botId: string }) {
  return (
    <Stack gap="sm">
      <FlagField
        form={form}
        path="welcome.welcomeText_enabled"
        label="Greet visitors with the welcome text"
      />
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
      <FlagField form={form} path="welcome.enablePopupMenu" label="Show the popup menu" />
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
