import { Badge } from '@mantine/core';

export function TenantStatusBadge({ isActive }: { isActive: boolean }) {
  return (
    <Badge variant="dot" color={isActive ? 'teal' : 'gray'}>
      {isActive ? 'Active' : 'Inactive'}
    </Badge>
  );
}
