import type Stripe from 'stripe';
import { PAYOUT_MESSAGES } from '../../../../events/payout-values';
import type { MyPayoutsResponse } from '../../../../events/payouts';
import type { RoyaltyStore } from '../../../royalties';
import type { AccountCaller } from '../../../shared/auth';
import { ValidationError } from '../../../shared/errors';
import { connectStatusOf, NOT_STARTED } from '../../connect';
import type { PayoutStore } from '../../store';
import { myTalent, type TalentCallerDeps } from '../../talent';
import { earningsCsv, talentPayoutView } from '../../views';

export interface MyPayoutsDeps extends TalentCallerDeps {
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
  const { talentId } = await myTalent(deps, caller);
  const connect = await deps.store.getConnect(talentId);
  let account = NOT_STARTED;
  if (connect) {
    account = connectStatusOf(await deps.stripe.accounts.retrieve(connect.accountId));
    await deps.store.setConnectStatus(talentId, account, deps.now().toISOString());
  }
  const payouts = (await deps.store.listPayouts(talentId)).sort((a, b) => b.month.localeCompare(a.month)).map(talentPayoutView);
  return { account, minimumCents: deps.minimumCents, payouts };
}

/** `GET /me/payouts/earnings.csv?year=YYYY`: the year's statements and payouts, for the talent's taxes. */
export async function myEarningsCsv(deps: MyPayoutsDeps, caller: AccountCaller, year: string | undefined): Promise<{ filename: string; csv: string }> {
  if (!year || !/^\d{4}$/.test(year)) throw new ValidationError(PAYOUT_MESSAGES.badYear, { year: PAYOUT_MESSAGES.badYear });
  const { talentId } = await myTalent(deps, caller);
  const [statements, payouts] = await Promise.all([deps.statements.listStatements(talentId), deps.store.listPayouts(talentId)]);
  return earningsCsv(year, statements, payouts);
}
