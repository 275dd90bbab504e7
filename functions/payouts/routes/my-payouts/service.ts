import type Stripe from 'stripe';
import type { MyPayoutsResponse } from '../../../../events/payouts';
import type { RoyaltyStore } from '../../../royalties';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { connectStatusOf, NOT_STARTED } from '../../connect';
import type { PayoutStore } from '../../store';
import { talentPayoutView } from '../../views';

export interface MyPayoutsDeps extends CallerTalentDeps {
  stripe: Stripe;
  store: Pick<PayoutStore, 'getConnect' | 'setConnectStatus' | 'listPayouts'>;
  statements: Pick<RoyaltyStore, 'listStatements'>;
  minimumCents: number;
  now: () => Date;
}

/**
 * `GET /me/payouts`: the caller's payout account as Stripe says now (read on each visit, so the
 * portal shows "Payouts active" as soon as the talent is back from Stripe's page) and every
 * statement's payout, newest first.
 */
export async function myPayouts(deps: MyPayoutsDeps, caller: AccountCaller): Promise<MyPayoutsResponse> {
  const { id: talentId } = (await callerTalent(deps, caller)).talent;
  const connect = await deps.store.getConnect(talentId);
  let account = NOT_STARTED;
  if (connect) {
    account = connectStatusOf(await deps.stripe.accounts.retrieve(connect.accountId));
    await deps.store.setConnectStatus(talentId, account, deps.now().toISOString());
  }
  const payouts = (await deps.store.listPayouts(talentId)).sort((a, b) => b.month.localeCompare(a.month)).map(talentPayoutView);
  return { account, minimumCents: deps.minimumCents, payouts };
}
