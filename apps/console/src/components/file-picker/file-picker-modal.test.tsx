import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { KNOWLEDGE_FILE_EXTENSIONS, type FileItem } from '@omnibot/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFilesApi } from '../../test/fake-files-api';
import { renderRoute } from '../../test/render';
import { FilePickerModal } from './file-picker-modal';

afterEach(() => vi.unstubAllGlobals());

function renderPicker(multiple: boolean) {
  stubFilesApi({
    folders: ['docs', 'docs/2026', 'empty'],
    files: ['a.png', 'guide.pdf', 'notes.TXT', 'docs/faq.md', 'docs/2026/plan.pdf', 'docs/2026/photo.jpg'],
  });
  const picked: FileItem[][] = [];
  const onClose = vi.fn();
  renderRoute(
    <FilePickerModal
      opened
      onClose={onClose}
      onPick={(files) => picked.push(files)}
      multiple={multiple}
      accept={KNOWLEDGE_FILE_EXTENSIONS}
      acceptLabel="readable"
    />,
  );
  return { picked, onClose, user: userEvent.setup() };
}

const entries = async () => {
  const list = await screen.findByRole('list', { name: 'Folders and files' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
};

describe('FilePickerModal', () => {
  it('shows folders and only accepted files, walks into folders and back, and picks several across folders', async () => {
    const { picked, onClose, user } = renderPicker(true);
    expect(await entries()).toEqual(['docs', 'empty', 'guide.pdf1000 bytes', 'notes.TXT1000 bytes']);

    await user.click(screen.getByRole('checkbox', { name: 'guide.pdf' }));
    await user.click(screen.getByRole('button', { name: 'Open folder docs' }));
    await waitFor(async () => expect(await entries()).toEqual(['2026', 'faq.md1000 bytes']));
    await user.click(screen.getByRole('button', { name: 'Open folder 2026' }));
    await waitFor(async () => expect(await entries()).toEqual(['plan.pdf1000 bytes']));
    await user.click(screen.getByRole('checkbox', { name: 'plan.pdf' }));
    expect(screen.getByText('2 files chosen')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'docs' }));
    await user.click(await screen.findByRole('checkbox', { name: 'faq.md' }));
    await user.click(screen.getByRole('button', { name: 'All files' }));
    // A file ticked before leaving its folder stays ticked on return.
    expect(await screen.findByRole('checkbox', { name: 'guide.pdf' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'guide.pdf' }));

    await user.click(screen.getByRole('button', { name: 'Add chosen files' }));
    expect(picked.map((files) => files.map((file) => file.path))).toEqual([
      ['docs/2026/plan.pdf', 'docs/faq.md'],
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it('picks exactly one file in single mode and says what to do in an empty folder', async () => {
    const { picked, user } = renderPicker(false);
    const choose = await screen.findByRole('button', { name: 'Choose' });
    expect(choose).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: 'guide.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'notes.TXT' }));
    expect(screen.getByRole('checkbox', { name: 'guide.pdf' })).not.toBeChecked();
    expect(screen.getByText('1 file chosen')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open folder empty' }));
    expect(await screen.findByText('No readable files here')).toBeInTheDocument();
    expect(screen.getByText(/upload files in the file manager/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Choose' }));
    expect(picked.map((files) => files.map((file) => file.path))).toEqual([['notes.TXT']]);
  });
});
