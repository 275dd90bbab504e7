import type { StatementList } from '../../../../events/royalties';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { statementSummaryOf } from '../../statement-views';
import type { RoyaltyStore } from '../../store';

export interface MyStatementsDeps extends CallerTalentDeps {
  royalties: Pick<RoyaltyStore, 'listStatements'>;
}

/** `GET /me/statements`: the talent's closed statements, newest first, each with its payout status. */
export async function myStatements(deps: MyStatementsDeps, caller: AccountCaller): Promise<StatementList> {
  const { id: talentId } = (await callerTalent(deps, caller)).talent;
  const records = await deps.royalties.listStatements(talentId);
  return { statements: records.map((r) => statementSummaryOf(r)) };
}
