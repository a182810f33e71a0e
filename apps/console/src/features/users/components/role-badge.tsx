import { Badge } from '@mantine/core';
import type { Role } from '@omnibot/contracts';
import { ROLE_COLORS, ROLE_LABELS } from '../utils/roles';

export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge variant="light" color={ROLE_COLORS[role]}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}
