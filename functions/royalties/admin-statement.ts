// One statement as the console sees it.
import type { AdminStatement } from '../../events/royalties';
import { STATEMENT_ID_PATTERN, STATEMENT_NOT_FOUND_MESSAGE } from '../../events/royalty-values';
import { NotFoundError } from '../shared/errors';
import { statementDetailOf } from './statement-views';
import type { RoyaltyStore, StatementRecord } from './store';
import type { TalentStore } from '../catalog';

export interface StatementAdminDeps {
  royalties: Pick<RoyaltyStore, 'getStatement' | 'claimedAccruals' | 'claimedTakenBack' | 'claimedGivenBack'>;
  talent: Pick<TalentStore, 'get'>;
}

/** A statement id's month and talent; a 404 for anything that is not a statement id. */
export function statementKeyOf(id: string | undefined): { month: string; talentId: string } {
  if (!id || !STATEMENT_ID_PATTERN.test(id)) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  const at = id.indexOf('_');
  return { month: id.slice(0, at), talentId: id.slice(at + 1) };
}

/**
 * The console's statement: figures, every line (rebuilt from the accruals its close claimed;
 * accruals written before plans were recorded on them take the talent's plan now), the payout
 * and the audit of payout changes.
 */
export async function adminStatementOf(deps: StatementAdminDeps, record: StatementRecord): Promise<AdminStatement> {
  const talent = await deps.talent.get(record.talentId);
  const [claimed, takenBack, givenBack] = await Promise.all([
    deps.royalties.claimedAccruals(record.talentId, record.month, record.fromMonth, talent?.royaltyPlan ?? 'standard-tiers'),
    deps.royalties.claimedTakenBack(record.talentId, record.month),
    deps.royalties.claimedGivenBack(record.talentId, record.month),
  ]);
  return { ...statementDetailOf(record, claimed, takenBack, givenBack), audit: record.audit ?? [] };
}
