import { Card, Stack, Switch, TagsInput, Text, Textarea, Title } from '@mantine/core';
import {
  type Bot,
  WIDGET_LABEL_MAX,
  WIDGET_MENU_MAX,
  WIDGET_SUGGESTIONS_MAX,
  WIDGET_TEXT_MAX,
} from '@omnibot/contracts';
import { ConfigFieldset } from '../../../components/access/config-fieldset';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { FormActions } from '../../../components/forms/form-actions';
import { useCanConfigure } from '../../../lib/permissions';
import { errorWithin } from '../utils/config-form';
import { useConfigForm } from '../utils/use-config-form';
import { ListItemsEditor } from './list-items-editor';

const MENU_FIELDS = [
  { key: 'label', label: 'Label', maxLength: WIDGET_LABEL_MAX },
  { key: 'text', label: 'Text sent', maxLength: WIDGET_TEXT_MAX, long: true },
] as const;

/**
 * /bot/config/message: the welcome text, the welcome and popup menus and the start suggestions of a bot; shown
 * with its fields disabled and no save to a role that may not configure.
 */
export function WelcomeMessageForm({ bot }: { bot: Bot }) {
  const canConfigure = useCanConfigure();
  const { form, save, isSaving } = useConfigForm(bot, {
    groups: ['welcome'],
    successMessage: 'The welcome message was saved.',
    failureTitle: 'The welcome message was not saved',
  });
  const welcome = form.getValues().welcome;
  return (
    <form onSubmit={form.onSubmit((values) => void save(values))} noValidate>
      <Stack gap="lg" maw={760}>
        {!canConfigure && <ReadOnlyNotice />}
        <ConfigFieldset>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="md">
              <Stack gap="sm">
                <Title order={2} size="h4">
                  Welcome text
                </Title>
                <Switch
                  label="Greet visitors with the welcome text"
                  key={form.key('welcome.welcomeText_enabled')}
                  {...form.getInputProps('welcome.welcomeText_enabled', { type: 'checkbox' })}
                />
                <Textarea
                  label="Welcome text"
                  description={`The bot's first message (${welcome.welcomeText.length} / ${WIDGET_TEXT_MAX} characters).`}
                  rows={3}
                  resize="vertical"
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
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="md">
              <Stack gap="sm">
                <Title order={2} size="h4">
                  Welcome menu
                </Title>
                <Text size="sm" c="dimmed">
                  Buttons under the welcome text; a click sends the item&apos;s text as the visitor&apos;s
                  question.
                </Text>
                <ListItemsEditor
                  form={form}
                  path="welcome.welcomeMenu"
                  items={welcome.welcomeMenu}
                  fields={MENU_FIELDS}
                  itemLabel="Welcome item"
                  max={WIDGET_MENU_MAX}
                  emptyText="No welcome menu: visitors start by typing."
                  blank={{ label: '', text: '' }}
                />
              </Stack>
            </Card>
            <Card withBorder radius="md" padding="md">
              <Stack gap="sm">
                <Title order={2} size="h4">
                  Popup menu
                </Title>
                <Switch
                  label="Show the popup menu"
                  description="A menu button beside the input that offers these items at any time."
                  key={form.key('welcome.enablePopupMenu')}
                  {...form.getInputProps('welcome.enablePopupMenu', { type: 'checkbox' })}
                />
                <ListItemsEditor
                  form={form}
                  path="welcome.popupMenu"
                  items={welcome.popupMenu}
                  fields={MENU_FIELDS}
                  itemLabel="Popup item"
                  max={WIDGET_MENU_MAX}
                  emptyText="No popup menu items."
                  blank={{ label: '', text: '' }}
                />
              </Stack>
            </Card>
          </Stack>
        </ConfigFieldset>
        {canConfigure && <FormActions submitLabel="Save" isSaving={isSaving} />}
      </Stack>
    </form>
  );
}
