import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import { pathTrail } from '../../../lib/files/storage-paths';

/** All files › docs › 2026: every folder above the current one is a link. */
export function FileBreadcrumbs({ path, hrefFor }: { path: string; hrefFor: (path: string) => string }) {
  const trail = pathTrail(path);
  return (
    <nav aria-label="Folder path">
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap', rowGap: 4 }}>
        {trail.map((step, index) => {
          const label = step.path === '' ? 'All files' : step.name;
          return index === trail.length - 1 ? (
            <Text key={step.path} size="sm" fw={600} aria-current="page">
              {label}
            </Text>
          ) : (
            <Anchor key={step.path} component={Link} to={hrefFor(step.path)} size="sm">
              {label}
            </Anchor>
          );
        })}
      </Breadcrumbs>
    </nav>
  );
}
