import { Button, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { confirmAction, type ConfirmOptions } from './confirm-action';
import { notifyError } from './notify';

interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick' | 'loading'> {
  confirm: ConfirmOptions;
  /** Runs after the user confirms; the button shows loading until it settles, and a failure becomes a toast. */
  onConfirm: () => Promise<unknown>;
  children: ReactNode;
  'aria-label'?: string;
}

/** A button that asks first (confirmAction) and shows loading while the confirmed action runs. */
export function ConfirmButton({ confirm, onConfirm, children, ...buttonProps }: ConfirmButtonProps) {
  const [isRunning, setIsRunning] = useState(false);
  const onClick = async () => {
    if (!(await confirmAction(confirm))) return;
    setIsRunning(true);
    try {
      await onConfirm();
    } catch (error) {
      notifyError(error);
    } finally {
      setIsRunning(false);
    }
  };
  return (
    <Button {...buttonProps} loading={isRunning} onClick={() => void onClick()}>
      {children}
    </Button>
  );
}
