export { confirmAction, type ConfirmOptions } from './confirm-action';
export { ConfirmButton } from './confirm-button';
