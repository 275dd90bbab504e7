import { PAYOUT_MESSAGES } from '../../../../events/payout-values';
import type { RoyaltyStore } from '../../../royalties';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ValidationError } from '../../../shared/errors';
import type { PayoutStore } from '../../store';
import { earningsCsv } from '../../views';

export interface MyEarningsCsvDeps extends CallerTalentDeps {
  store: Pick<PayoutStore, 'listPayouts'>;
  statements: Pick<RoyaltyStore, 'listStatements'>;
}

/** `GET /me/payouts/earnings.csv?year=YYYY`: the year's statements and payouts, for the talent's taxes. */
export async function myEarningsCsv(deps: MyEarningsCsvDeps, caller: AccountCaller, year: string | undefined): Promise<{ filename: string; csv: string }> {
  if (!year || !/^\d{4}$/.test(year)) throw new ValidationError(PAYOUT_MESSAGES.badYear, { year: PAYOUT_MESSAGES.badYear });
  const { id: talentId } = (await callerTalent(deps, caller)).talent;
  const [statements, payouts] = await Promise.all([deps.statements.listStatements(talentId), deps.store.listPayouts(talentId)]);
  return earningsCsv(year, statements, payouts);
}
