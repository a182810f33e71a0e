import { DEFAULT_THEME, mergeMantineTheme, toRgba } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);

/** WCAG 2 relative luminance and contrast ratio of two opaque colours. */
function luminance(color: string): number {
  const { r, g, b } = toRgba(color);
  const [red, green, blue] = [r, g, b].map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** WCAG AA for text under 18.66 px bold or 24 px. */
const AA = 4.5;

describe('the light theme meets WCAG AA contrast', () => {
  const shade = typeof merged.primaryShade === 'number' ? merged.primaryShade : merged.primaryShade.light;
  const primary = merged.colors[merged.primaryColor]?.[shade] ?? '';

  it('for primary links on white and on striped table rows, and white text on primary buttons', () => {
    expect(contrast(primary, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(primary, merged.colors.gray[0])).toBeGreaterThanOrEqual(AA);
  });

  it('for the light variant (badges, light buttons) of every colour, at rest and hovered', () => {
    const light = cssVariablesResolver(merged).light;
    for (const [name, shades] of Object.entries(merged.colors)) {
      const text = light[`--mantine-color-${name}-light-color`] ?? shades[9];
      expect(contrast(text, shades[1]), `${name} on shade 1`).toBeGreaterThanOrEqual(AA);
      expect(contrast(text, shades[2]), `${name} on shade 2`).toBeGreaterThanOrEqual(AA);
    }
  });
});
