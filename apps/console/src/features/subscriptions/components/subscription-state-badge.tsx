import { Badge } from '@mantine/core';
import type { Subscription } from '@omnibot/contracts';
import { SUBSCRIPTION_STATE_LABELS, subscriptionState } from '../utils/subscription-state';

/** Current, starting later, lapsed (its period is over) or revoked. */
export function SubscriptionStateBadge({ subscription }: { subscription: Subscription }) {
  const { label, color } = SUBSCRIPTION_STATE_LABELS[subscriptionState(subscription)];
  return (
    <Badge variant="light" color={color} miw="max-content">
      {label}
    </Badge>
  );
}
