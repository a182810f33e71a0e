/** What the tenant types mean to a reader: "1" the platform, "2" a partner, "3" a client. */
const TENANT_TYPE_LABELS: Record<string, string> = {
  '1': 'Platform',
  '2': 'Partner',
  '3': 'Client',
};

export const tenantTypeLabel = (type: string) => TENANT_TYPE_LABELS[type] ?? `Type ${type}`;
