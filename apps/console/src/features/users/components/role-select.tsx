import { Select, type SelectProps } from '@mantine/core';
import type { Role } from '@omnibot/contracts';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../utils/roles';

interface RoleSelectProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  roles: readonly Role[];
  value: Role | '';
  onChange: (role: Role) => void;
}

/** A role picker offering only `roles` (those the caller may give), each with what it may do. */
export function RoleSelect({ roles, value, onChange, ...props }: RoleSelectProps) {
  return (
    <Select
      label="Role"
      {...props}
      data={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
      value={value || null}
      onChange={(next) => next && onChange(next as Role)}
      allowDeselect={false}
      renderOption={({ option }) => (
        <div>
          <div>{option.label}</div>
          <div style={{ fontSize: 'var(--mantine-font-size-xs)', opacity: 0.7 }}>
            {ROLE_DESCRIPTIONS[option.value as Role]}
          </div>
        </div>
      )}
    />
  );
}
