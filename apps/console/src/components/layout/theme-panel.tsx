import {
  ActionIcon,
  Box,
  Group,
  Popover,
  Radio,
  SimpleGrid,
  Text,
  Title,
  Tooltip,
  useMantineColorScheme,
} from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { THEME_PANEL_TOGGLED_KEY, type AppMode } from '../../lib/theme';
import classes from './theme-panel.module.css';

const MODES: { value: AppMode; label: string }[] = [
  { value: 'dark', label: 'Dark' },
  { value: 'light', label: 'Light' },
];

function rememberPanelToggled(opened: boolean) {
  try {
    window.localStorage.setItem(THEME_PANEL_TOGGLED_KEY, String(opened));
  } catch {
    // Storage may be blocked; the panel works without it.
  }
}

/**
 * The theme panel: Display Mode Dark or Light, stored in localStorage `appMode` by the
 * colour scheme manager. The panel always starts closed; its open state is recorded in
 * `appThemePanelToggled` but not restored, so a reload never opens it over the page.
 */
export function ThemePanel() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [opened, setOpened] = useState(false);
  const titleId = useId();
  const mode: AppMode = colorScheme === 'light' ? 'light' : 'dark';

  const toggle = (next: boolean) => {
    setOpened(next);
    rememberPanelToggled(next);
  };

  return (
    <Popover opened={opened} onChange={toggle} position="bottom-end" width={272} shadow="md" trapFocus>
      <Popover.Target>
        <Tooltip label="Theme settings" openDelay={400} disabled={opened}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label="Theme settings"
            aria-expanded={opened}
            onClick={() => toggle(!opened)}
          >
            <IconSettings size={20} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-labelledby={titleId}>
        <Title order={2} size="h5" id={titleId} mb="sm">
          Theme panel
        </Title>
        <Radio.Group
          label="Display Mode"
          value={mode}
          onChange={(value) => setColorScheme(value === 'light' ? 'light' : 'dark')}
        >
          <SimpleGrid cols={2} spacing="sm" mt="xs">
            {MODES.map(({ value, label }) => (
              <Radio.Card key={value} value={value} className={classes.card} p="xs">
                <Box className={classes.preview} data-mode={value} aria-hidden="true">
                  <span className={classes.previewHeader} />
                  <span className={classes.previewSidebar} />
                </Box>
                <Group justify="center" gap={6} mt={6}>
                  <Radio.Indicator size="xs" />
                  <Text size="sm" fw={500}>
                    {label}
                  </Text>
                </Group>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
