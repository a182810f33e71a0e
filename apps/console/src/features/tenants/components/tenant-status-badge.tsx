import { Badge } from '@mantine/core';

export function TenantStatusBadge({ isActive }: { isActive: boolean }) {
  return (
    <Badge variant="dot" color={isActive ? 'teal' : 'gray'} miw="max-content">
      {isActive ? 'Active' : 'Inactive'}
    </Badge>
  );
}
