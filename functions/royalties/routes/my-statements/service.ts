import { StatementIdSchema, type EarningsResponse, type StatementDetail, type StatementList } from '../../../../events/royalties';
import { buildStatement, monthOfIso } from '../../arithmetic';
import { STATEMENT_NOT_FOUND_MESSAGE } from '../../../../events/royalty-values';
import { callerTalent, type CallerTalentDeps } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import { statementCsv, statementCsvFilename, statementDetailOf, statementSummaryOf } from '../../statement-views';
import type { RoyaltyStore } from '../../store';

export interface MyRoyaltiesDeps extends CallerTalentDeps {
  royalties: Pick<RoyaltyStore, 'openAccruals' | 'claimedAccruals' | 'latestStatementBefore' | 'listStatements' | 'getStatement' | 'claimedTakenBack'>;
  /** The stage's cap on promotional royalties per statement: this month so far is what the close would build now. */
  promotionalCapMicros: number;
  now?: () => Date;
}

/**
 * `GET /me/earnings`: this month so far, live. The accruals no statement has claimed yet (a late
 * one of an earlier month too: the next close takes it) through the royalty function, with the
 * remainder the latest statement carried out.
 */
export async function myEarnings(deps: MyRoyaltiesDeps, caller: AccountCaller): Promise<EarningsResponse> {
  // The talent's plan now prices accruals written before plans were recorded on them.
  const { id: talentId, royaltyPlan: plan } = (await callerTalent(deps, caller)).talent;
  const month = monthOfIso((deps.now?.() ?? new Date()).toISOString());
  const [open, latest] = await Promise.all([deps.royalties.openAccruals(talentId, month, plan), deps.royalties.latestStatementBefore(talentId, month)]);
  const { totals } = buildStatement(open, latest?.totals.carriedOutMicros ?? 0, deps.promotionalCapMicros);
  return { month, totals };
}

/** `GET /me/statements`: the talent's closed statements, newest first, each with its payout status. */
export async function myStatements(deps: MyRoyaltiesDeps, caller: AccountCaller): Promise<StatementList> {
  const { id: talentId } = (await callerTalent(deps, caller)).talent;
  const records = await deps.royalties.listStatements(talentId);
  return { statements: records.map((r) => statementSummaryOf(r)) };
}

/**
 * `GET /me/statements/{id}`: one of the caller's statements with its lines. Another talent's
 * statement is answered exactly as a missing one (404), so ids reveal nothing.
 */
export async function myStatement(deps: MyRoyaltiesDeps, caller: AccountCaller, id: string | undefined): Promise<StatementDetail> {
  const parsed = StatementIdSchema.safeParse(id);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]!.message);
  const { id: talentId, royaltyPlan: plan } = (await callerTalent(deps, caller)).talent;
  const [month, owner] = [parsed.data.slice(0, 7), parsed.data.slice(8)];
  if (owner !== talentId) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  const record = await deps.royalties.getStatement(talentId, month);
  if (!record) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  const [claimed, takenBack] = await Promise.all([deps.royalties.claimedAccruals(talentId, month, record.fromMonth, plan), deps.royalties.claimedTakenBack(talentId, month)]);
  return statementDetailOf(record, claimed, takenBack);
}

/** `GET /me/statements/{id}/csv`: the statement as a CSV file. */
export async function myStatementCsv(deps: MyRoyaltiesDeps, caller: AccountCaller, id: string | undefined): Promise<{ filename: string; csv: string }> {
  const detail = await myStatement(deps, caller, id);
  return { filename: statementCsvFilename(detail.month), csv: statementCsv(detail) };
}
