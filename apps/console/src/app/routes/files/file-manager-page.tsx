import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FileManager } from '../../../features/files/components/file-manager';

/** /file: the File Manager (menu: File Manager > Files). */
export function Component() {
  return (
    <RequireMenuRoute route="/file">
      <FileManager />
    </RequireMenuRoute>
  );
}
