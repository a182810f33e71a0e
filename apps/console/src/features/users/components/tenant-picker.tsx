import { Select } from '@mantine/core';
import { IconBuildingCommunity } from '@tabler/icons-react';
import { useMemo } from 'react';
import { errorMessage } from '../../../lib/error-message';
import { useReachableTenants, type ReachableTenant } from '../api/get-reachable-tenants';

interface TenantPickerProps {
  ownTenantId: string;
  ownTenantName: string;
  value: string;
  onChange: (tenantId: string) => void;
  label?: string;
}

const labelOf = (tenant: ReachableTenant) =>
  [...tenant.ancestors, tenant.name].join(' › ') + (tenant.isActive ? '' : ' (inactive)');

/**
 * Picks the organisation whose users are shown: the caller's own or one of its client organisations
 * (GET /v1/Account?tenant_id=, two levels down). Renders nothing when there are none to pick from.
 */
export function TenantPicker({
  ownTenantId,
  ownTenantName,
  value,
  onChange,
  label = 'Organisation',
}: TenantPickerProps) {
  const reachable = useReachableTenants(ownTenantId, true);
  const data = useMemo(
    () => [
      { value: ownTenantId, label: `${ownTenantName} (your organisation)` },
      ...(reachable.data ?? []).map((tenant) => ({ value: tenant.tenantId, label: labelOf(tenant) })),
    ],
    [ownTenantId, ownTenantName, reachable.data],
  );
  const hasChoice = (reachable.data?.length ?? 0) > 0;
  // Nothing to pick: the own organisation is the only one (unless the address names another).
  if (reachable.isSuccess && !hasChoice && value === ownTenantId) return null;

  return (
    <Select
      label={label}
      data={data}
      value={value}
      onChange={(next) => next && onChange(next)}
      allowDeselect={false}
      searchable
      nothingFoundMessage="No organisation matches"
      leftSection={<IconBuildingCommunity size={16} aria-hidden="true" />}
      disabled={reachable.isPending}
      placeholder={reachable.isPending ? 'Loading organisations…' : undefined}
      error={
        reachable.isError
          ? `Client organisations could not be loaded: ${errorMessage(reachable.error)}`
          : null
      }
      maw={420}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
