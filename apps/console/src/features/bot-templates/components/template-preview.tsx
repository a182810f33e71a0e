import { ColorSwatch, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { BotTemplateConfig } from '@omnibot/contracts';
import type { ReactNode } from 'react';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {children}
    </Stack>
  );
}

function Line({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed" inherit>
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}

function Swatches({ label, light, dark }: { label: string; light: string; dark: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <ColorSwatch color={light} size={16} aria-label={`${label} (light): ${light}`} />
      <ColorSwatch color={dark} size={16} aria-label={`${label} (dark): ${dark}`} />
      <Text size="sm">{label}</Text>
    </Group>
  );
}

const onOff = (value: boolean) => (value ? 'on' : 'off');

/** What a template keeps of a bot, group by group, and what it never keeps. */
export function TemplatePreview({
  config,
  title = 'What the template keeps',
}: {
  config: BotTemplateConfig;
  title?: string;
}) {
  const { identity, welcome, appearance, feedback, titles, masking, launcher, window } = config;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" aria-label={title} component="section">
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          <Section title="Identity">
            <Line label="Name" value={identity.name} />
            <Line label="Description" value={identity.description} />
            <Line label="Display names" value={`${identity.displayName} / ${identity.botUserName}`} />
          </Section>
          <Section title="Welcome">
            <Line
              label={`Welcome text (${onOff(welcome.welcomeText_enabled)})`}
              value={welcome.welcomeText}
            />
            <Line label="Suggestions" value={welcome.start_suggestions.join(' · ') || 'none'} />
            <Line label="Menu items" value={welcome.welcomeMenu.length + welcome.popupMenu.length} />
          </Section>
          <Section title="Appearance">
            <Line label="Colour scheme" value={appearance.colorScheme} />
            <Swatches
              label="Window"
              light={appearance.backgroundColor}
              dark={appearance.backgroundColorDark}
            />
            <Swatches
              label="Visitor bubble"
              light={appearance.userBubble.backgroundColor}
              dark={appearance.userBubble.backgroundColorDark}
            />
            <Swatches
              label="Bot bubble"
              light={appearance.botBubble.backgroundColor}
              dark={appearance.botBubble.backgroundColorDark}
            />
            <Line label="Font" value={`${appearance.bubble.fontFamily} ${appearance.bubble.fontSize}`} />
          </Section>
          <Section title="Launcher and window">
            <Line label="Launcher" value={`${launcher.position}, ${launcher.positionPct}% from the edge`} />
            <Swatches label="Launcher" light={launcher.background} dark={launcher.background} />
            <Line label="Info text" value={launcher.infoText} />
            <Line label="Window" value={`${window.width} × ${window.height} px`} />
          </Section>
          <Section title="Feedback and titles">
            <Line
              label="Buttons"
              value={[feedback.button1Text, feedback.button2Text, feedback.button3Text].join(' · ')}
            />
            <Line label="Input and send" value={`${titles.inputTitle} · ${titles.sendTitle}`} />
          </Section>
          <Section title="Masking">
            <Line label="Masking" value={onOff(masking.enableMasking)} />
            <Line
              label="Patterns"
              value={masking.patterns.map((pattern) => pattern.name).join(', ') || 'none'}
            />
          </Section>
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Never kept
          </Text>
          <List size="sm" c="dimmed">
            <List.Item>The engine, RAG, model and prompt the bot answers with</List.Item>
            <List.Item>
              Languages, the allowed origins of the install, and provider settings and keys
            </List.Item>
          </List>
        </Stack>
      </Stack>
    </Paper>
  );
}
