import type Stripe from 'stripe';
import type { CheckoutStatus } from '../../../../events/payments';
import { NotFoundError } from '../../../shared/errors';
import type { PaymentsStore } from '../../store';

export const CHECKOUT_NOT_FOUND_MESSAGE = 'There is no checkout with this id on your account.';

export interface CheckoutStatusDeps {
  stripe: Stripe;
  store: Pick<PaymentsStore, 'getCheckout'>;
}

/**
 * `GET /me/checkout-sessions/{id}`: how the caller's checkout stands. `applied` once the verified
 * event granted its credits or set its plan; `confirming` while Stripe says it is paid and that
 * event has not been applied yet (the redirect back grants nothing); `open`; `expired`. Another
 * account's checkout answers 404, as an unknown one does.
 */
export async function checkoutStatus(deps: CheckoutStatusDeps, accountId: string, sessionId: string): Promise<CheckoutStatus> {
  const record = await deps.store.getCheckout(sessionId);
  if (!record || record.accountId !== accountId) throw new NotFoundError(CHECKOUT_NOT_FOUND_MESSAGE);
  const what = { id: record.sessionId, kind: record.kind, ...(record.plan ? { plan: record.plan } : {}), ...(record.credits ? { credits: record.credits } : {}) };
  if (record.appliedAt) return { ...what, state: 'applied' };
  const session = await deps.stripe.checkout.sessions.retrieve(sessionId);
  const state = session.status === 'expired' ? 'expired' : session.status === 'complete' ? 'confirming' : 'open';
  return { ...what, state };
}
