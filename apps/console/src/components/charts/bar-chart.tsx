import { Box, ColorSwatch, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';

/** One stacked part of every bar: its key in the data, its name and a Mantine colour name ('teal', 'red'). */
export interface BarSeries {
  key: string;
  label: string;
  color: string;
}

/** One bar: its category (a day, say) and a value per series key. */
interface BarDatum {
  label: string;
  values: Record<string, number>;
}

interface BarChartProps {
  /** The chart's heading, also its accessible name. */
  title: string;
  series: readonly BarSeries[];
  data: readonly BarDatum[];
  /** How a category is written on the axis, in tooltips and in the table (e.g. a day as "24 Nov"). */
  formatLabel?: (label: string) => string;
  /** Height of the plot in pixels. */
  height?: number;
  /** Heading level of the title. */
  order?: 2 | 3 | 4;
}

const VIEW_WIDTH = 1000;
const VIEW_HEIGHT = 100;
const GRID_LINES = [0.25, 0.5, 0.75];

const sumOf = (datum: BarDatum, series: readonly BarSeries[]) =>
  series.reduce((sum, item) => sum + (datum.values[item.key] ?? 0), 0);

/**
 * A small stacked bar chart in SVG: a bar per category scaled to the largest, a legend with totals, a tooltip per
 * part, and the same figures as a table for screen readers. It stretches to its container, so it fits 375 px, and
 * draws with Mantine's colour variables, so it follows the light and dark themes.
 */
export function BarChart({
  title,
  series,
  data,
  formatLabel = (label) => label,
  height = 160,
  order = 3,
}: BarChartProps) {
  const titleId = useId();
  const totals = series.map((item) => ({
    ...item,
    total: data.reduce((sum, datum) => sum + (datum.values[item.key] ?? 0), 0),
  }));
  const sums = data.map((datum) => sumOf(datum, series));
  const max = Math.max(0, ...sums);
  const scale = max === 0 ? 0 : VIEW_HEIGHT / max;
  const slot = data.length === 0 ? VIEW_WIDTH : VIEW_WIDTH / data.length;
  const barWidth = Math.max(slot * 0.7, 1);
  const peakIndex = sums.indexOf(max);
  const peak = data[peakIndex];
  const total = sums.reduce((sum, value) => sum + value, 0);
  const summary =
    total === 0
      ? `${title}: none in these ${data.length} days.`
      : `${title}: ${total} in ${data.length} days; most on ${formatLabel(peak?.label ?? '')} (${max}).`;
  const middle = data[Math.floor((data.length - 1) / 2)];
  const axisLabels = [
    data[0],
    data.length > 2 ? middle : undefined,
    data.length > 1 ? data.at(-1) : undefined,
  ];

  return (
    <Stack component="figure" gap="xs" m={0} aria-labelledby={titleId}>
      <Group justify="space-between" align="baseline" gap="xs">
        <Title order={order} size="h5" id={titleId}>
          {title}
        </Title>
        <Group gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {totals.map((item) => (
            <Group key={item.key} component="li" gap={6} wrap="nowrap">
              <ColorSwatch size={10} color={`var(--mantine-color-${item.color}-filled)`} withShadow={false} />
              <Text size="xs" c="dimmed">
                {item.label}: {item.total}
              </Text>
            </Group>
          ))}
        </Group>
      </Group>
      <Group gap="xs" align="stretch" wrap="nowrap">
        <Stack justify="space-between" gap={0} aria-hidden="true" style={{ minWidth: '1.5rem' }}>
          <Text size="xs" c="dimmed" ta="right">
            {max}
          </Text>
          <Text size="xs" c="dimmed" ta="right">
            0
          </Text>
        </Stack>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <svg
            role="img"
            aria-label={summary}
            width="100%"
            height={height}
            viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
            preserveAspectRatio="none"
            style={{ display: 'block', overflow: 'visible' }}
          >
            {GRID_LINES.map((at) => (
              <line
                key={at}
                x1={0}
                x2={VIEW_WIDTH}
                y1={VIEW_HEIGHT * at}
                y2={VIEW_HEIGHT * at}
                stroke="var(--mantine-color-default-border)"
                strokeDasharray="4 4"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            <line
              x1={0}
              x2={VIEW_WIDTH}
              y1={VIEW_HEIGHT}
              y2={VIEW_HEIGHT}
              stroke="var(--mantine-color-dimmed)"
              vectorEffect="non-scaling-stroke"
            />
            {data.map((datum, index) => {
              let top = VIEW_HEIGHT;
              const x = index * slot + (slot - barWidth) / 2;
              return (
                <g key={datum.label} data-testid="bar">
                  {series.map((item) => {
                    const value = datum.values[item.key] ?? 0;
                    if (value === 0) return null;
                    const barHeight = value * scale;
                    top -= barHeight;
                    return (
                      <rect
                        key={item.key}
                        x={x}
                        y={top}
                        width={barWidth}
                        height={barHeight}
                        fill={`var(--mantine-color-${item.color}-filled)`}
                        data-series={item.key}
                      >
                        <title>{`${formatLabel(datum.label)} · ${item.label}: ${value}`}</title>
                      </rect>
                    );
                  })}
                </g>
              );
            })}
          </svg>
          <Group justify="space-between" gap={0} wrap="nowrap" aria-hidden="true" mt={4}>
            {axisLabels.map((datum, index) => (
              <Text key={index} size="xs" c="dimmed">
                {datum ? formatLabel(datum.label) : ''}
              </Text>
            ))}
          </Group>
        </Box>
      </Group>
      <VisuallyHidden>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((item) => (
                <th key={item.key} scope="col">
                  {item.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((datum) => (
              <tr key={datum.label}>
                <th scope="row">{formatLabel(datum.label)}</th>
                {series.map((item) => (
                  <td key={item.key}>{datum.values[item.key] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Stack>
  );
}
