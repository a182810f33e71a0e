import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createUploadStore } from '../../../lib/files/upload-store';
import { UploadStoreContext } from '../../../lib/files/use-uploads';
import type { Session } from '../../../lib/session';
import { stubFilesApi, type FakeFilesApi } from '../../../test/fake-files-api';
import { renderRoute } from '../../../test/render';
import { FileManager } from './file-manager';
import { defined } from '../../../test/defined';

const session = (role = 'administrator'): Session => ({
  tenantName: 'Acme',
  tenantType: '2',
  profile: { role, tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
});

let api: FakeFilesApi;

beforeEach(() => {
  api = stubFilesApi({
    folders: ['docs', 'docs/2026', 'empty'],
    files: ['a.png', 'B.PNG', 'd.mp3', 'e.wav', 'f.txt', 'g.doc', 'i.pdf', 'docs/2026/plan.pdf'],
  });
});

function renderManager(path = '/file', role = 'administrator') {
  const store = createUploadStore({
    transport: { start: () => ({ pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) }) },
  });
  const rendered = renderRoute(
    <UploadStoreContext value={store}>
      <FileManager />
    </UploadStoreContext>,
    { path, session: session(role) },
  );
  return { ...rendered, user: userEvent.setup() };
}

const rowNames = async () => {
  const table = await screen.findByRole('table', { name: 'Files and folders' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => defined(within(row).getAllByRole('cell')[0]).textContent);
};
const location = () => screen.getByTestId('location').textContent;

describe('FileManager', () => {
  it('lists folders then files, and the tabs apply exactly the contracts filters', async () => {
    const { user } = renderManager();
    expect(await rowNames()).toEqual([
      'docs',
      'empty',
      'a.png',
      'B.PNG',
      'd.mp3',
      'e.wav',
      'f.txt',
      'g.doc',
      'i.pdf',
    ]);

    await user.click(screen.getByRole('tab', { name: /Images/ }));
    expect(location()).toBe('/file?tab=images');
    expect(await rowNames()).toEqual(['docs', 'empty', 'a.png']);

    await user.click(screen.getByRole('tab', { name: /Audio/ }));
    expect(await rowNames()).toEqual(['docs', 'empty', 'd.mp3', 'e.wav']);

    await user.click(screen.getByRole('tab', { name: /Documents/ }));
    expect(await rowNames()).toEqual(['docs', 'empty', 'a.png', 'B.PNG', 'd.mp3', 'e.wav', 'i.pdf']);

    // Each kind counts its files; All counts folders too.
    expect(screen.getByRole('tab', { name: /All/ })).toHaveTextContent('All9');
    expect(screen.getByRole('tab', { name: /Images/ })).toHaveTextContent('Images1');
    expect(screen.getByRole('tab', { name: /Documents/ })).toHaveTextContent('Documents5');
  });

  it('opens the tab, folder and view named in the query string', async () => {
    renderManager('/file?path=docs%2F2026&tab=documents&view=grid');
    expect(await screen.findByRole('tab', { name: /Documents/, selected: true })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Files and folders' });
    expect(within(grid).getByRole('listitem', { name: 'plan.pdf' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Folder path' });
    expect(within(crumbs).getByRole('link', { name: 'All files' })).toHaveAttribute(
      'href',
      '/file?tab=documents&view=grid',
    );
    expect(within(crumbs).getByRole('link', { name: 'docs' })).toBeInTheDocument();
    expect(within(crumbs).getByText('2026')).toHaveAttribute('aria-current', 'page');
  });

  it('tells what to do in an empty folder, and in one that does not exist', async () => {
    const { user } = renderManager('/file?path=empty');
    expect(await screen.findByText('This folder is empty')).toBeInTheDocument();
    expect(
      screen.getByText(/Drop files on the area above to upload them here, or create a folder/),
    ).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Folder path' });
    await user.click(within(crumbs).getByRole('link', { name: 'All files' }));
    expect(await rowNames()).toContain('docs');
  });

  it('says so when the folder of the query string does not exist', async () => {
    const { user } = renderManager('/file?path=nowhere');
    expect(await screen.findByText('This folder does not exist')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to all files' }));
    expect(await rowNames()).toContain('docs');
  });

  it('checks a new folder name before sending it, then creates it and opens it', async () => {
    const { user } = renderManager('/file?path=docs');
    await screen.findByRole('table', { name: 'Files and folders' });
    await user.click(defined(screen.getAllByRole('button', { name: 'New folder' })[0]));
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    const name = within(dialog).getByLabelText(/Folder name/);
    await user.type(name, 'a/b');
    await user.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(within(dialog).getByText('A name may not contain a slash or a backslash')).toBeInTheDocument();
    expect(api.calls.some((call) => call.startsWith('POST'))).toBe(false);

    await user.clear(name);
    await user.type(name, 'reports');
    await user.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(await screen.findByText('Folder “reports” created.')).toBeInTheDocument();
    expect(api.folders.has('docs/reports')).toBe(true);
    await waitFor(() => expect(location()).toBe('/file?path=docs%2Freports'));
  });

  it('deletes a folder with contents only after an explicit confirmation', async () => {
    const { user } = renderManager();
    await screen.findByRole('table', { name: 'Files and folders' });
    await user.click(screen.getByRole('button', { name: 'Actions for docs' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete folder “docs”?' });
    expect(await within(dialog).findByText('This folder is not empty')).toBeInTheDocument();
    const remove = within(dialog).getByRole('button', { name: 'Delete folder and contents' });
    expect(remove).toBeDisabled();
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Yes, delete “docs” and everything in it' }),
    );
    await user.click(remove);
    expect(await screen.findByText('Folder “docs” deleted.')).toBeInTheDocument();
    expect(api.calls).toContain('DELETE /v1/files/folders?path=docs&recursive=true');
    await waitFor(async () => expect(await rowNames()).not.toContain('docs'));
  });

  it('deletes an empty folder with a plain confirmation', async () => {
    const { user } = renderManager();
    await screen.findByRole('table', { name: 'Files and folders' });
    await user.click(screen.getByRole('button', { name: 'Actions for empty' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete folder “empty”?' });
    expect(await within(dialog).findByText(/The empty folder “empty” will be deleted/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Folder “empty” deleted.')).toBeInTheDocument();
    expect(api.calls).toContain('DELETE /v1/files/folders?path=empty&recursive=false');
  });

  it('moves a file to a folder picked from all folders', async () => {
    const { user } = renderManager();
    await screen.findByRole('table', { name: 'Files and folders' });
    await user.click(screen.getByRole('button', { name: 'Actions for i.pdf' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move i.pdf' });
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(within(dialog).getByText('Choose the folder to move the file to')).toBeInTheDocument();
    const target = within(dialog).getByLabelText(/Move to folder/, { selector: 'input' });
    await waitFor(() => expect(target).toBeEnabled());
    await user.click(target);
    await user.click(await screen.findByRole('option', { name: 'docs/2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Moved “i.pdf” to “docs/2026”.')).toBeInTheDocument();
    expect(api.files.has('docs/2026/i.pdf')).toBe(true);
  });

  it('renames with the name checked first', async () => {
    const { user } = renderManager();
    await screen.findByRole('table', { name: 'Files and folders' });
    await user.click(screen.getByRole('button', { name: 'Actions for f.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename file' });
    const name = within(dialog).getByLabelText(/File name/);
    await user.clear(name);
    await user.type(name, '..');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByText('A name may not be "." or ".."')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'f.md');
    expect(within(dialog).getByText(/The extension changes/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Renamed “f.txt” to “f.md”.')).toBeInTheDocument();
    expect(api.files.has('f.md')).toBe(true);
  });

  it('lets a read-only role browse but not change anything', async () => {
    const { user } = renderManager('/file', 'agent');
    await screen.findByRole('table', { name: 'Files and folders' });
    expect(screen.getByText(/Your role can view files but not change them/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Choose files to upload')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New folder' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions for i.pdf' }));
    expect(await screen.findByRole('menuitem', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Rename' })).not.toBeInTheDocument();
  });

  it('shows a signed link to copy with when it expires', async () => {
    const { user } = renderManager();
    await screen.findByRole('table', { name: 'Files and folders' });
    await user.click(screen.getByRole('button', { name: 'Actions for a.png' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link to a.png' });
    expect(await within(dialog).findByLabelText('Download link')).toHaveValue(
      'http://localhost:3000/v1/files/download?path=a.png&expires=1767225600&signature=s',
    );
    expect(within(dialog).getByText(/Anyone with this link can download the file/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(api.calls).toContain('GET /v1/files/object?path=a.png');
  });
});
