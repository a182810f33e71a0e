import type { ConfirmOptions } from '../../../components/ui/confirm';
import type { CredentialChange } from '../api/change-credential';

const STOPS_WORKING = 'Every integration that still uses the old';

/** What each change does and what it breaks, asked before it is sent. */
export const CONFIRMATIONS: Record<CredentialChange, ConfirmOptions> = {
  create: {
    title: 'Create the API credential?',
    message:
      'A key and a secret are created for this organisation. The secret is shown once, right afterwards: copy it then.',
    confirmLabel: 'Create credential',
  },
  reset: {
    title: 'Reset the credential?',
    message: `The key and the secret are both replaced. ${STOPS_WORKING} key and secret stops working until it is given the new ones. The new secret is shown once.`,
    confirmLabel: 'Reset credential',
    danger: true,
  },
  key: {
    title: 'Regenerate the key?',
    message: `The key is replaced and the secret stays the same. ${STOPS_WORKING} key stops working until it is given the new key.`,
    confirmLabel: 'Regenerate key',
    danger: true,
  },
  secret: {
    title: 'Regenerate the secret?',
    message: `The secret is replaced and the key stays the same. ${STOPS_WORKING} secret stops working until it is given the new one. The new secret is shown once.`,
    confirmLabel: 'Regenerate secret',
    danger: true,
  },
};

export const CHANGE_SUCCESS: Record<CredentialChange, string> = {
  create: 'The credential was created. Copy the secret now: it is shown only once.',
  reset: 'The credential was reset. Copy the new secret now: it is shown only once.',
  key: 'A new key was made. Give it to your integrations; the secret did not change.',
  secret: 'A new secret was made. Copy it now: it is shown only once.',
};
