import type { AccountCaller } from '../../../shared/auth';
import { statementCsv, statementCsvFilename } from '../../statement-views';
import { talentStatement, type TalentStatementDeps } from '../../talent-statement';

/** `GET /me/statements/{id}/csv`: one of the caller's statements as a CSV file. */
export async function myStatementCsv(deps: TalentStatementDeps, caller: AccountCaller, id: string | undefined): Promise<{ filename: string; csv: string }> {
  const detail = await talentStatement(deps, caller, id);
  return { filename: statementCsvFilename(detail.month), csv: statementCsv(detail) };
}
