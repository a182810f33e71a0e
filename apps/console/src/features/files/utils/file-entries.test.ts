import { describe, expect, it } from 'vitest';
import { fakeFile } from '../../../test/fake-files-api';
import { arrangeEntries, entryName } from './file-entries';

const folders = [
  { name: 'zeta', path: 'zeta', isFolder: true as const },
  { name: 'alpha', path: 'alpha', isFolder: true as const },
];
const files = [
  { ...fakeFile('b.pdf', 300), created_at: '2026-01-03T00:00:00Z' },
  { ...fakeFile('a10.png', 100), created_at: '2026-01-01T00:00:00Z' },
  { ...fakeFile('a9.png', 200), created_at: '2026-01-02T00:00:00Z' },
];

const names = (...args: Parameters<typeof arrangeEntries>) => arrangeEntries(...args).map(entryName);

describe('arrangeEntries', () => {
  it('puts folders first and sorts names naturally', () => {
    expect(names(folders, files, '', { column: 'name', direction: 'asc' })).toEqual([
      'alpha',
      'zeta',
      'a9.png',
      'a10.png',
      'b.pdf',
    ]);
    expect(names(folders, files, '', { column: 'name', direction: 'desc' })).toEqual([
      'zeta',
      'alpha',
      'b.pdf',
      'a10.png',
      'a9.png',
    ]);
  });

  it('sorts files by size, date or type, folders staying first by name', () => {
    expect(names(folders, files, '', { column: 'size', direction: 'desc' })).toEqual([
      'alpha',
      'zeta',
      'b.pdf',
      'a9.png',
      'a10.png',
    ]);
    expect(names([], files, '', { column: 'created', direction: 'asc' })).toEqual([
      'a10.png',
      'a9.png',
      'b.pdf',
    ]);
    expect(names([], files, '', { column: 'type', direction: 'asc' })).toEqual([
      'b.pdf',
      'a9.png',
      'a10.png',
    ]);
  });

  it('searches names by every word, case-insensitively', () => {
    expect(names(folders, files, 'A', { column: 'name', direction: 'asc' })).toEqual([
      'alpha',
      'zeta',
      'a9.png',
      'a10.png',
    ]);
    expect(names(folders, files, 'a 10', { column: 'name', direction: 'asc' })).toEqual(['a10.png']);
  });
});
