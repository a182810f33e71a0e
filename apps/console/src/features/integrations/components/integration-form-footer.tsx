import { Button } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { FormActions } from '../../../components/forms/form-actions';
import { type IntegrationTestState, IntegrationTestResultAlert } from './integration-test-result';

interface IntegrationFormFooterProps {
  test: IntegrationTestState;
  onTest: () => void;
  onCloseTest: () => void;
  isNew: boolean;
  isSaving: boolean;
  /** Buttons before the test button (delete...). */
  actions?: ReactNode;
}

/** The end of an integration form: the last connection test's result, then its actions, test and submit. */
export function IntegrationFormFooter({
  test,
  onTest,
  onCloseTest,
  isNew,
  isSaving,
  actions,
}: IntegrationFormFooterProps) {
  return (
    <>
      <IntegrationTestResultAlert test={test} onClose={onCloseTest} />
      <FormActions
        submitLabel={isNew ? 'Add integration' : 'Save'}
        isSaving={isSaving}
        actions={
          <>
            {actions}
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} aria-hidden="true" />}
              loading={test.status === 'running'}
              onClick={onTest}
            >
              Test connection
            </Button>
          </>
        }
      />
    </>
  );
}
