import { Box, Card, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type DiffRow, diffLines } from '@omnibot/contracts';
import { useMemo } from 'react';

type Side = 'left' | 'right';

/** The background of a line: removed and changed on the left in red, added and changed on the right in green. */
function toneOf(row: DiffRow, side: Side): 'removed' | 'added' | null {
  if (row.kind === 'same') return null;
  if (side === 'left') return row[side] === null ? null : 'removed';
  return row[side] === null ? null : 'added';
}

const TONE_STYLE = {
  removed: { background: 'var(--mantine-color-red-light)', marker: '−', label: 'removed' },
  added: { background: 'var(--mantine-color-green-light)', marker: '+', label: 'added' },
} as const;

function Pane({ rows, side, title }: { rows: DiffRow[]; side: Side; title: string }) {
  return (
    <Card withBorder radius="md" padding={0} component="section" aria-label={title}>
      <Text fw={600} size="sm" px="sm" py={6}>
        {title}
      </Text>
      <Box
        component="ol"
        m={0}
        p={0}
        style={{
          listStyle: 'none',
          fontFamily: 'var(--mantine-font-family-monospace)',
          fontSize: 13,
          borderTop: '1px solid var(--mantine-color-default-border)',
        }}
      >
        {rows.map((row, index) => {
          const line = row[side];
          const tone = toneOf(row, side);
          const style = tone ? TONE_STYLE[tone] : null;
          return (
            <Box
              component="li"
              key={index}
              data-diff={tone ?? (line === null ? 'gap' : 'same')}
              aria-hidden={line === null ? true : undefined}
              px="sm"
              style={{
                display: 'flex',
                gap: 8,
                minHeight: '1.5em',
                background: style?.background,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              <Box component="span" w="1ch" style={{ flex: 'none', userSelect: 'none' }} aria-hidden="true">
                {style?.marker ?? ' '}
              </Box>
              {style && <VisuallyHidden>{`${style.label}: `}</VisuallyHidden>}
              <span>{line ?? ''}</span>
            </Box>
          );
        })}
      </Box>
    </Card>
  );
}

interface VersionDiffProps {
  before: { label: string; template: string };
  after: { label: string; template: string };
}

/** Two versions side by side (stacked on a phone), removed lines in red on the left, added in green on the right. */
export function VersionDiff({ before, after }: VersionDiffProps) {
  const rows = useMemo(() => diffLines(before.template, after.template), [before.template, after.template]);
  const changed = rows.filter((row) => row.kind !== 'same').length;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="diff-summary">
        {changed === 0
          ? 'The two versions are identical.'
          : `${changed} ${changed === 1 ? 'line differs' : 'lines differ'}.`}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Pane rows={rows} side="left" title={before.label} />
        <Pane rows={rows} side="right" title={after.label} />
      </SimpleGrid>
    </Stack>
  );
}
