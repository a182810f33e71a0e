import type { Account, FeatureCode } from '@omnibot/contracts';
import { heldCodes } from '../utils/subscription-state';
import { useSubscriptions } from './get-subscriptions';

/**
 * The codes `organisation` may be given: those its parent holds now (the server refuses any other). Undefined
 * while loading or when no organisation is chosen.
 */
export function useAssignableCodes(organisation: Account | undefined) {
  const parentId = organisation?.parent_tenant_id ?? '';
  const parentSubscriptions = useSubscriptions(parentId);
  const codes: FeatureCode[] | undefined = parentSubscriptions.data
    ? heldCodes(parentSubscriptions.data)
    : undefined;
  return { codes, query: parentSubscriptions, parentId };
}
