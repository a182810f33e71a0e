import { Fieldset } from '@mantine/core';
import type { ReactNode } from 'react';
import { useCanConfigure } from '../../lib/permissions';

/**
 * The fields of a configuration form, disabled together for a role that may read them but not change them, so
 * the values stay visible and nothing the server would refuse can be edited.
 */
export function ConfigFieldset({ children }: { children: ReactNode }) {
  const canConfigure = useCanConfigure();
  return (
    <Fieldset variant="unstyled" disabled={!canConfigure}>
      {children}
    </Fieldset>
  );
}
