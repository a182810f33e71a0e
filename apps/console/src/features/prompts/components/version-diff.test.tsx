import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/render';
import { VersionDiff } from './version-diff';

const linesOf = (pane: HTMLElement) =>
  within(pane)
    .getAllByRole('listitem', { hidden: true })
    .map((item) => [item.dataset.diff, item.textContent?.replace(/^[−+ ]/u, '')]);

describe('VersionDiff', () => {
  it('shows two aligned panes with removed lines marked on the left and added ones on the right', () => {
    renderRoute(
      <VersionDiff
        before={{ label: 'Version 1', template: 'keep\nold line\nsame' }}
        after={{ label: 'Version 2 (current)', template: 'keep\nnew line\nsame\nextra' }}
      />,
    );
    expect(screen.getByTestId('diff-summary')).toHaveTextContent('2 lines differ.');
    const left = screen.getByRole('region', { name: 'Version 1' });
    const right = screen.getByRole('region', { name: 'Version 2 (current)' });
    expect(linesOf(left)).toEqual([
      ['same', 'keep'],
      ['removed', 'removed: old line'],
      ['same', 'same'],
      ['gap', ''],
    ]);
    expect(linesOf(right)).toEqual([
      ['same', 'keep'],
      ['added', 'added: new line'],
      ['same', 'same'],
      ['added', 'added: extra'],
    ]);
  });

  it('says when the versions are identical', () => {
    renderRoute(<VersionDiff before={{ label: 'A', template: 'x' }} after={{ label: 'B', template: 'x' }} />);
    expect(screen.getByTestId('diff-summary')).toHaveTextContent('The two versions are identical.');
  });
});
