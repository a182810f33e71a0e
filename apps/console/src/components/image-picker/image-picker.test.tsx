import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransportCallbacks, UploadTransport } from '../../lib/files/tus-transport';
import { createUploadStore, type UploadStore } from '../../lib/files/upload-store';
import { UploadStoreContext } from '../../lib/files/use-uploads';
import type { Session } from '../../lib/session';
import { stubFilesApi, type FakeFilesApi } from '../../test/fake-files-api';
import { renderRoute } from '../../test/render';
import { ImagePicker, type ImagePickerProps } from './image-picker';
import { defined } from '../../test/defined';

const session = (role = 'administrator'): Session => ({
  tenantName: 'Acme',
  tenantType: '2',
  profile: { role, tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
});

let api: FakeFilesApi;
let store: UploadStore;
let started: { file: File; folder: string; callbacks: TransportCallbacks }[];

beforeEach(() => {
  api = stubFilesApi({
    folders: ['brand', 'brand/old', 'docs'],
    files: [
      'avatar.png',
      'brand/logo.svg',
      'brand/old/launcher.webp',
      'docs/manual.pdf',
      'docs/SHOUTING.PNG',
      'notes.txt',
      'song.mp3',
    ],
  });
  started = [];
  const transport: UploadTransport = {
    start(file, target, callbacks) {
      started.push({ file, folder: target.folder, callbacks });
      return { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) };
    },
  };
  store = createUploadStore({ transport });
});

function renderPicker(props: Partial<ImagePickerProps> = {}, role = 'administrator') {
  const onPick = vi.fn();
  const onClose = vi.fn();
  renderRoute(
    <UploadStoreContext value={store}>
      <ImagePicker opened onClose={onClose} onPick={onPick} {...props} />
    </UploadStoreContext>,
    { session: session(role) },
  );
  return { onPick, onClose, dialog: screen.getByRole('dialog', { name: props.title ?? 'Choose an image' }) };
}

const optionNames = async (dialog: HTMLElement) => {
  const group = await within(dialog).findByRole('radiogroup', { name: 'Images' });
  return within(group)
    .getAllByRole('radio')
    .map((radio) => radio.getAttribute('aria-label'));
};

describe('ImagePicker', () => {
  it('offers the images of every folder, by the image extension rules', async () => {
    const { dialog } = renderPicker();
    // SHOUTING.PNG is not an image (case-sensitive), nor are the pdf, txt and mp3.
    // In name order, whatever the folder.
    expect(await optionNames(dialog)).toEqual(['avatar.png', 'brand/old/launcher.webp', 'brand/logo.svg']);
    expect(within(dialog).getByText('3 images in all folders')).toBeInTheDocument();
  });

  it('returns the picked image and closes', async () => {
    const user = userEvent.setup();
    const { dialog, onPick, onClose } = renderPicker({ confirmLabel: 'Use as avatar' });
    const use = within(dialog).getByRole('button', { name: 'Use as avatar' });
    expect(use).toBeDisabled();
    const logo = await within(dialog).findByRole('radio', { name: 'brand/logo.svg' });
    await user.click(logo);
    expect(logo).toHaveAttribute('aria-checked', 'true');
    expect(within(dialog).getByText('Selected: brand/logo.svg')).toBeInTheDocument();
    await user.click(use);
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(onPick).toHaveBeenCalledWith({
      path: 'brand/logo.svg',
      name: 'logo.svg',
      url: expect.stringContaining('path=brand%2Flogo.svg') as string,
      size: 1000,
      content_type: 'application/octet-stream',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('Cancel closes without picking', async () => {
    const user = userEvent.setup();
    const { dialog, onPick, onClose } = renderPicker();
    await user.click(await within(dialog).findByRole('radio', { name: 'avatar.png' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onPick).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the current choice selected', async () => {
    const { dialog } = renderPicker({ selectedPath: 'avatar.png' });
    expect(await within(dialog).findByRole('radio', { name: 'avatar.png' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(within(dialog).getByRole('button', { name: 'Use this image' })).toBeEnabled();
  });

  it('narrows to one folder and searches by name', async () => {
    const user = userEvent.setup();
    const { dialog } = renderPicker({ initialFolder: 'brand' });
    expect(await optionNames(dialog)).toEqual(['brand/logo.svg']);
    expect(api.calls.filter((call) => call.startsWith('GET /v1/files?'))).toContain(
      'GET /v1/files?path=brand&page_size=1000',
    );
    await user.click(within(dialog).getByLabelText('Folder', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'All folders' }));
    await waitFor(async () => expect(await optionNames(dialog)).toHaveLength(3));
    await user.type(within(dialog).getByLabelText('Search images'), 'old');
    expect(await optionNames(dialog)).toEqual(['brand/old/launcher.webp']);
    await user.clear(within(dialog).getByLabelText('Search images'));
    await user.type(within(dialog).getByLabelText('Search images'), 'zebra');
    expect(within(dialog).getByText('No image matches your search')).toBeInTheDocument();
  });

  it('says what to do when a folder has no images', async () => {
    const { dialog } = renderPicker({ initialFolder: 'docs' });
    expect(await within(dialog).findByText('No images here yet')).toBeInTheDocument();
    expect(within(dialog).getByText('Drop an image above, or choose another folder.')).toBeInTheDocument();
  });

  it('selects an image uploaded from the picker once it is stored', async () => {
    const user = userEvent.setup();
    const { dialog, onPick } = renderPicker({ initialFolder: 'brand' });
    await within(dialog).findByRole('radio', { name: 'brand/logo.svg' });
    await user.upload(
      within(dialog).getByLabelText('Choose images to upload'),
      new File(['png'], 'new-logo.png'),
    );
    expect(started.map((upload) => [upload.file.name, upload.folder])).toEqual([['new-logo.png', 'brand']]);
    expect(within(dialog).getByRole('group', { name: 'Upload of new-logo.png' })).toBeInTheDocument();

    api.addFile('brand/new-logo.png', 3);
    defined(started[0]).callbacks.onSuccess('brand/new-logo.png');
    const uploaded = await within(dialog).findByRole('radio', { name: 'brand/new-logo.png' });
    await waitFor(() => expect(uploaded).toHaveAttribute('aria-checked', 'true'));
    await user.click(within(dialog).getByRole('button', { name: 'Use this image' }));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ path: 'brand/new-logo.png', size: 3 }));
  });

  it('refuses files that are not images before uploading anything', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { dialog } = renderPicker();
    await within(dialog).findByRole('radiogroup', { name: 'Images' });
    await user.upload(within(dialog).getByLabelText('Choose images to upload'), [
      new File(['x'], 'report.pdf'),
      new File(['x'], 'LOUD.PNG'),
    ]);
    expect(
      await screen.findByText(/report\.pdf: Only jpg, jpeg, png, gif, bmp, svg, webp files/),
    ).toBeInTheDocument();
    expect(screen.getByText(/LOUD\.PNG: Only/)).toBeInTheDocument();
    expect(started).toEqual([]);
  });

  it('offers no upload to a role that may not change files', async () => {
    const { dialog } = renderPicker({}, 'agent');
    await within(dialog).findByRole('radiogroup', { name: 'Images' });
    expect(within(dialog).queryByLabelText('Choose images to upload')).not.toBeInTheDocument();
  });
});
