import type { AdminStatement } from '../../../../events/royalties';
import { STATEMENT_NOT_FOUND_MESSAGE } from '../../../../events/royalty-values';
import { NotFoundError } from '../../../shared/errors';
import { adminStatementOf, statementKeyOf, type StatementAdminDeps } from '../../admin-statement';

export async function getStatementAdmin(deps: StatementAdminDeps, id: string | undefined): Promise<AdminStatement> {
  const { month, talentId } = statementKeyOf(id);
  const record = await deps.royalties.getStatement(talentId, month);
  if (!record) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  return adminStatementOf(deps, record);
}
