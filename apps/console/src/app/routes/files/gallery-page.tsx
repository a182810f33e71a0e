import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { ImageGallery } from '../../../features/files/components/image-gallery';

/** /bot/gallery: the tenant's images (menu: File Manager > Images). */
export function Component() {
  return (
    <RequireMenuRoute route="/bot/gallery">
      <ImageGallery />
    </RequireMenuRoute>
  );
}
