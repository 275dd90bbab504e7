import type { PayoutDetailsRequest } from '../../../../events/royalties';
import { currentAccount, NO_LIKENESS_MESSAGE, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ConflictError } from '../../../shared/errors';
import type { RoyaltyStore } from '../../store';

export interface PayoutDetailsDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
  royalties: Pick<RoyaltyStore, 'putPayoutDetails'>;
  now?: () => Date;
}

/**
 * `PUT /me/payout-details`: where an accepted talent's monthly payouts go (a PayPal or Wise
 * account, by email). Replaces what was on file; answers what is now on file.
 */
export async function putPayoutDetails(deps: PayoutDetailsDeps, caller: AccountCaller, body: PayoutDetailsRequest): Promise<{ talentId: string; accountHolder: string; payoutEmail: string }> {
  await currentAccount(deps.accounts, caller);
  const { likeness } = await requireAcceptedTalent(deps.standing, caller);
  if (!likeness) throw new ConflictError(NO_LIKENESS_MESSAGE);
  const details = { accountHolder: body.accountHolder, payoutEmail: body.payoutEmail.trim().toLowerCase() };
  await deps.royalties.putPayoutDetails(likeness.talentId, { ...details, updatedAt: (deps.now?.() ?? new Date()).toISOString() });
  return { talentId: likeness.talentId, ...details };
}
