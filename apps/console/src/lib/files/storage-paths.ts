/** Storage paths as the files API writes them: "docs/2026/report.pdf", '' for the root folder. */

export const joinPath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

export const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

export const baseNameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The folders from the root down to `path`, each with its name and full path (the root first, named ''). */
export function pathTrail(path: string): { name: string; path: string }[] {
  const trail = [{ name: '', path: '' }];
  if (!path) return trail;
  const segments = path.split('/');
  segments.forEach((name, index) => trail.push({ name, path: segments.slice(0, index + 1).join('/') }));
  return trail;
}
