import { describe, expect, it } from 'vitest';
import { baseNameOf, joinPath, parentOf, pathTrail } from './storage-paths';

describe('storage paths', () => {
  it('joins, splits and walks paths', () => {
    expect(joinPath('', 'a.png')).toBe('a.png');
    expect(joinPath('docs/2026', 'a.png')).toBe('docs/2026/a.png');
    expect(parentOf('docs/2026/a.png')).toBe('docs/2026');
    expect(parentOf('a.png')).toBe('');
    expect(baseNameOf('docs/2026/a.png')).toBe('a.png');
    expect(pathTrail('')).toEqual([{ name: '', path: '' }]);
    expect(pathTrail('docs/2026')).toEqual([
      { name: '', path: '' },
      { name: 'docs', path: 'docs' },
      { name: '2026', path: 'docs/2026' },
    ]);
  });
});
