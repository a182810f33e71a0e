import { describe, expect, it } from 'vitest';
import { filesForTab, parseFileTab } from './file-tabs';

const names = [
  'a.png',
  'B.PNG',
  'c.jpeg',
  'd.mp3',
  'e.WAV',
  'f.txt',
  'g.doc',
  'h.TXT',
  'i.pdf',
  'Makefile',
  'j.tar.gz',
];
const files = names.map((name) => ({ name }));
const tab = (value: Parameters<typeof filesForTab>[1]) => filesForTab(files, value).map((file) => file.name);

describe('File Manager tabs use the contracts filters', () => {
  it('All lists every file', () => {
    expect(tab('all')).toEqual(names);
  });

  it('Images: jpg, jpeg, png, gif, bmp, svg, webp, case-sensitive', () => {
    expect(tab('images')).toEqual(['a.png', 'c.jpeg']);
  });

  it('Audio: mp3 and wav, case-sensitive', () => {
    expect(tab('audio')).toEqual(['d.mp3']);
  });

  it('Documents: all but txt and doc (so images, audio and upper-case TXT stay)', () => {
    expect(tab('documents')).toEqual([
      'a.png',
      'B.PNG',
      'c.jpeg',
      'd.mp3',
      'e.WAV',
      'h.TXT',
      'i.pdf',
      'Makefile',
      'j.tar.gz',
    ]);
  });

  it('reads the tab from the query string, All otherwise', () => {
    expect(parseFileTab('audio')).toBe('audio');
    expect(parseFileTab('Images')).toBe('all');
    expect(parseFileTab(null)).toBe('all');
  });
});
