import type Stripe from 'stripe';
import { NO_BILLING_ACCOUNT_MESSAGE } from '../../../../events/payment-values';
import type { RedirectResponse } from '../../../../events/payments';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RateLimiter } from '../../../shared/rate-limit';
import { portalRule, type ClientDeps } from '../../client';
import type { PaymentsStore } from '../../store';

export interface PortalDeps extends ClientDeps {
  stripe: Stripe;
  store: Pick<PaymentsStore, 'customerOf'>;
  limit: RateLimiter;
  siteUrl: string;
}

/**
 * `POST /me/billing-portal-sessions`: Stripe's billing portal for the caller's own customer (the
 * account comes from the token, never the body); 409 for an account that never paid.
 */
export async function createPortalSession(deps: PortalDeps, caller: AccountCaller): Promise<RedirectResponse> {
  const account = await deps.account(caller);
  const customer = await deps.store.customerOf(account.id);
  if (!customer) throw new ConflictError(NO_BILLING_ACCOUNT_MESSAGE);
  await deps.limit([portalRule(account.id)]);
  const session = await deps.stripe.billingPortal.sessions.create({ customer, return_url: `${deps.siteUrl}/client-portal` });
  return { id: session.id, url: session.url };
}
