import { describe, expect, it } from 'vitest';
import { countryLabel } from './country-name';

describe('countryLabel', () => {
  it('names a country by its code, and keeps a code it cannot read', () => {
    expect(countryLabel('FR')).toBe('France (FR)');
    expect(countryLabel('JP')).toBe('Japan (JP)');
    expect(countryLabel('not a code')).toBe('not a code');
  });
});
