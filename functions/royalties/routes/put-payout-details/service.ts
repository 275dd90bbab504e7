import type { PayoutDetailsRequest } from '../../../../events/royalties';
import { currentAccount, NO_LIKENESS_MESSAGE, ownChangeRule, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { RoyaltyStore } from '../../store';

export interface PayoutDetailsDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
  royalties: Pick<RoyaltyStore, 'putPayoutDetails'>;
  limit: RateLimiter;
  now?: () => Date;
}

/**
 * `PUT /me/payout-details`: where an accepted talent's monthly payouts go (a PayPal or Wise
 * account, by email). Replaces what was on file; answers what is now on file. Each save counts
 * against the talent's hourly limit on changes (429 beyond it).
 */
export async function putPayoutDetails(deps: PayoutDetailsDeps, caller: AccountCaller, body: PayoutDetailsRequest): Promise<{ talentId: string; accountHolder: string; payoutEmail: string }> {
  // The account's id is the caller's `sub`.
  await deps.limit([ownChangeRule('payout-details', caller.sub)]);
  await currentAccount(deps.accounts, caller);
  const { likeness } = await requireAcceptedTalent(deps.standing, caller);
  if (!likeness) throw new ConflictError(NO_LIKENESS_MESSAGE);
  const details = { accountHolder: body.accountHolder, payoutEmail: body.payoutEmail.trim().toLowerCase() };
  await deps.royalties.putPayoutDetails(likeness.talentId, { ...details, updatedAt: (deps.now?.() ?? new Date()).toISOString() });
  return { talentId: likeness.talentId, ...details };
}
