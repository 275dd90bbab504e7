import { StatementIdSchema, type StatementDetail } from '../../events/royalties';
import { STATEMENT_NOT_FOUND_MESSAGE } from '../../events/royalty-values';
import { callerTalent, type CallerTalentDeps } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { NotFoundError, ValidationError } from '../shared/errors';
import { statementDetailOf } from './statement-views';
import type { RoyaltyStore } from './store';

export interface TalentStatementDeps extends CallerTalentDeps {
  royalties: Pick<RoyaltyStore, 'getStatement' | 'claimedAccruals' | 'claimedTakenBack' | 'claimedGivenBack'>;
}

/**
 * One of the caller's statements with its lines, as `GET /me/statements/{id}` and its CSV both
 * answer it. Another talent's statement is answered exactly as a missing one (404), so ids
 * reveal nothing.
 */
export async function talentStatement(deps: TalentStatementDeps, caller: AccountCaller, id: string | undefined): Promise<StatementDetail> {
  const parsed = StatementIdSchema.safeParse(id);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]!.message);
  const { id: talentId, royaltyPlan: plan } = (await callerTalent(deps, caller)).talent;
  const [month, owner] = [parsed.data.slice(0, 7), parsed.data.slice(8)];
  if (owner !== talentId) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  const record = await deps.royalties.getStatement(talentId, month);
  if (!record) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  const [claimed, takenBack, givenBack] = await Promise.all([
    deps.royalties.claimedAccruals(talentId, month, record.fromMonth, plan),
    deps.royalties.claimedTakenBack(talentId, month),
    deps.royalties.claimedGivenBack(talentId, month),
  ]);
  return statementDetailOf(record, claimed, takenBack, givenBack);
}
