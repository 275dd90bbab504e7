import type { EarningsResponse } from '../../../../events/royalties';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { buildStatement, monthOfIso } from '../../arithmetic';
import type { RoyaltyStore } from '../../store';

export interface MyEarningsDeps extends CallerTalentDeps {
  royalties: Pick<RoyaltyStore, 'openAccruals' | 'latestStatementBefore'>;
  /** The stage's cap on promotional royalties per statement: this month so far is what the close would build now. */
  promotionalCapMicros: number;
  now?: () => Date;
}

/**
 * `GET /me/earnings`: this month so far, live. The accruals no statement has claimed yet (a late
 * one of an earlier month too: the next close takes it) through the royalty function, with the
 * remainder the latest statement carried out.
 */
export async function myEarnings(deps: MyEarningsDeps, caller: AccountCaller): Promise<EarningsResponse> {
  // The talent's plan now prices accruals written before plans were recorded on them.
  const { id: talentId, royaltyPlan: plan } = (await callerTalent(deps, caller)).talent;
  const month = monthOfIso((deps.now?.() ?? new Date()).toISOString());
  const [open, latest] = await Promise.all([deps.royalties.openAccruals(talentId, month, plan), deps.royalties.latestStatementBefore(talentId, month)]);
  const { totals } = buildStatement(open, latest?.totals.carriedOutMicros ?? 0, deps.promotionalCapMicros);
  return { month, totals };
}
