import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createUploadStore } from '../../../lib/files/upload-store';
import { UploadStoreContext } from '../../../lib/files/use-uploads';
import type { Session } from '../../../lib/session';
import { stubFilesApi } from '../../../test/fake-files-api';
import { renderRoute } from '../../../test/render';
import { ImageGallery } from './image-gallery';

const session: Session = {
  tenantName: 'Acme',
  tenantType: '2',
  profile: { role: 'administrator', tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
};

beforeEach(() => {
  stubFilesApi({ folders: ['brand'], files: ['avatar.png', 'brand/logo.webp', 'brand/guide.pdf'] });
});

function renderGallery(path = '/bot/gallery') {
  const store = createUploadStore({
    transport: { start: () => ({ pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) }) },
  });
  renderRoute(
    <UploadStoreContext value={store}>
      <ImageGallery />
    </UploadStoreContext>,
    { path, session },
  );
  return userEvent.setup();
}

describe('ImageGallery', () => {
  it("shows the tenant's images of every folder, or of the folder in ?folder=", async () => {
    renderGallery();
    const grid = await screen.findByRole('list', { name: 'Images' });
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['avatar.png', 'brand/logo.webp']);
  });

  it('narrows to ?folder=', async () => {
    renderGallery('/bot/gallery?folder=brand');
    const grid = await screen.findByRole('list', { name: 'Images' });
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['brand/logo.webp']);
  });

  it('"Copy an image link" picks an image in the picker and shows its link', async () => {
    const user = renderGallery();
    await screen.findByRole('list', { name: 'Images' });
    await user.click(screen.getByRole('button', { name: 'Copy an image link' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose the image to link to' });
    await user.click(await within(picker).findByRole('radio', { name: 'brand/logo.webp' }));
    await user.click(within(picker).getByRole('button', { name: 'Get its link' }));
    const share = await screen.findByRole('dialog', { name: 'Link to logo.webp' });
    const link = await within(share).findByLabelText<HTMLInputElement>('Download link');
    expect(link.value).toContain('/v1/files/download?path=brand%2Flogo.webp');
  });
});
