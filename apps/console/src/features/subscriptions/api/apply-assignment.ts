import { FeatureCodeSchema } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../../lib/account-api';
import type { AssignmentChange } from '../utils/subscription-state';
import { createSubscription } from './create-subscription';
import { updateSubscription } from './update-subscription';

/** One assignment change as its account-service call. */
function applyChange(tenantId: string, change: AssignmentChange) {
  switch (change.kind) {
    case 'create':
      return createSubscription(tenantId, {
        info: { code: FeatureCodeSchema.parse(change.code) },
        status: 'active',
      });
    case 'reactivate':
      return updateSubscription(change.subscription, {
        status: 'active',
        ...(change.clearEnd ? { ends_at: null } : {}),
      });
    case 'revoke':
      return updateSubscription(change.subscription, { status: 'revoked' });
  }
}

interface AssignmentOutcome {
  done: AssignmentChange[];
  failed: Array<{ change: AssignmentChange; error: unknown }>;
}

/** Applies the changes one by one (each is its own call); reports which went through and which did not. */
export function useApplyAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ tenantId, changes }: { tenantId: string; changes: AssignmentChange[] }) => {
      const outcome: AssignmentOutcome = { done: [], failed: [] };
      for (const change of changes) {
        try {
          await applyChange(tenantId, change);
          outcome.done.push(change);
        } catch (error) {
          outcome.failed.push({ change, error });
        }
      }
      return outcome;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.subscriptionLists() }),
  });
}
