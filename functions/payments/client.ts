// What the client's payment routes share (docs/payments.md#routes): who the caller is, and the
// per-account limits on the calls that create something at Stripe.
import type { PlanId } from '../../events/plans';
import type { AccountCaller } from '../shared/auth';
import type { RateRule } from '../shared/rate-limit';

/** The caller's account (created from the claims the first time; 403 when disabled). */
export interface ClientDeps {
  account(caller: AccountCaller): Promise<{ id: string; email: string; full_name: string; plan?: PlanId }>;
}

/** Checkouts one account may start an hour: far above a person's, a ceiling for a script. */
const CHECKOUTS_PER_HOUR = 20;
/** Billing portal sessions one account may open an hour. */
const PORTALS_PER_HOUR = 20;

export function checkoutRule(accountId: string): RateRule {
  return {
    name: 'checkout.account',
    subject: accountId,
    limit: CHECKOUTS_PER_HOUR,
    windowSeconds: 60 * 60,
    message: `You have started ${CHECKOUTS_PER_HOUR} checkouts in the last hour. Please wait a while and try again.`,
  };
}

export function portalRule(accountId: string): RateRule {
  return {
    name: 'billing-portal.account',
    subject: accountId,
    limit: PORTALS_PER_HOUR,
    windowSeconds: 60 * 60,
    message: `You have opened the billing portal ${PORTALS_PER_HOUR} times in the last hour. Please wait a while and try again.`,
  };
}
