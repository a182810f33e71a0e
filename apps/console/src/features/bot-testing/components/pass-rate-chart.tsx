import { Stack, Text, useMantineTheme } from '@mantine/core';
import type { BotTestRun } from '@omnibot/contracts';

/** Finished runs shown, the most recent ones. */
const CHART_RUNS = 20;

const percent = (run: BotTestRun) => (run.total === 0 ? 0 : Math.round((run.passed / run.total) * 100));

/**
 * The pass rate of the last finished runs, oldest to newest, as bars. The chart is an image whose label reads
 * every value, and each bar has its own title.
 */
export function PassRateChart({ runs }: { runs: BotTestRun[] }) {
  const theme = useMantineTheme();
  const done = runs
    .filter((run) => run.status === 'done')
    .slice(0, CHART_RUNS)
    .reverse();
  if (done.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No finished runs yet. Run the suite to start the pass-rate history.
      </Text>
    );
  }
  const latest = done.at(-1);
  const width = 320;
  const height = 120;
  const gap = 4;
  const bar = Math.max(4, (width - gap * (done.length - 1)) / done.length);
  const label = `Pass rate of the last ${done.length} runs, oldest first: ${done.map((run) => `${percent(run)}%`).join(', ')}`;
  return (
    <Stack gap={4}>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} ${height + 1}`}
        width="100%"
        style={{ maxWidth: 480, height: 'auto' }}
      >
        <line x1={0} x2={width} y1={height} y2={height} stroke="var(--mantine-color-default-border)" />
        {done.map((run, position) => {
          const value = percent(run);
          const h = Math.max(1, (value / 100) * height);
          return (
            <rect
              key={run.id}
              x={position * (bar + gap)}
              y={height - h}
              width={bar}
              height={h}
              rx={2}
              fill={
                value === 100
                  ? theme.colors.teal[6]
                  : value >= 50
                    ? theme.colors.yellow[6]
                    : theme.colors.red[6]
              }
            >
              <title>{`${new Date(run.created_at).toLocaleString()}: ${run.passed} of ${run.total} passed (${value}%)`}</title>
            </rect>
          );
        })}
      </svg>
      {latest && (
        <Text size="xs" c="dimmed">
          Latest run: {latest.passed} of {latest.total} passed ({percent(latest)}%)
        </Text>
      )}
    </Stack>
  );
}
