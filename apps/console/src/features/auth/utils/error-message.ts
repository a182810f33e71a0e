// The auth screens' messages come from the shared helper, so toasts elsewhere say the same thing.
export { errorCode, errorMessage } from '../../../lib/error-message';
