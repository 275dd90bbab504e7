import type Stripe from 'stripe';
import { PAYOUT_MESSAGES } from '../../../../events/payout-values';
import type { RedirectResponse } from '../../../../events/payments';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ValidationError } from '../../../shared/errors';
import type { RateLimiter, RateRule } from '../../../shared/rate-limit';
import { createConnectedAccount, onboardingLink } from '../../connect';
import type { PayoutStore } from '../../store';

export interface OnboardingDeps extends CallerTalentDeps {
  stripe: Stripe;
  store: Pick<PayoutStore, 'getConnect' | 'putConnect' | 'addHistory'>;
  limit: RateLimiter;
  siteUrl: string;
  now: () => Date;
}

/** Onboarding links a talent may ask for in an hour (each is one Stripe call, or two the first time). */
const onboardingRule = (talentId: string): RateRule => ({
  name: 'payout-onboarding.talent',
  subject: talentId,
  limit: 20,
  windowSeconds: 3600,
  message: 'You asked for 20 payout setup links this hour: try again in an hour.',
});

/**
 * `POST /me/payouts/onboarding`: the caller's connected account (created once, keyed by their
 * talent id) and a fresh link to Stripe's hosted onboarding. The body must be empty: the account
 * is never named by the browser.
 */
export async function startOnboarding(deps: OnboardingDeps, caller: AccountCaller, body: string | undefined): Promise<RedirectResponse> {
  if (body && body.trim() && body.trim() !== '{}') throw new ValidationError(PAYOUT_MESSAGES.accountFromBrowser);
  const { id: talentId, name } = (await callerTalent(deps, caller)).talent;
  await deps.limit([onboardingRule(talentId)]);
  let connect = await deps.store.getConnect(talentId);
  if (!connect) {
    const account = await createConnectedAccount(deps.stripe, { talentId, email: caller.email });
    const at = deps.now().toISOString();
    connect = await deps.store.putConnect({ talentId, accountId: account.id, email: caller.email, talentName: name, createdAt: at });
    await deps.store.addHistory(talentId, { at, what: 'Payout account created at Stripe; onboarding started' }, `created-${account.id}`);
  }
  const link = await onboardingLink(deps.stripe, connect.accountId, deps.siteUrl);
  return { url: link.url };
}
