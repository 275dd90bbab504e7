import type { AdminStatement, MarkPayoutRequest, StatementAuditEntry } from '../../../../events/royalties';
import { dollarsOfCents } from '../../../../events/royalty-format';
import { NOTHING_DUE_MESSAGE, STATEMENT_NOT_FOUND_MESSAGE } from '../../../../events/royalty-values';
import { ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import type { RoyaltyStore } from '../../store';
import { adminStatementOf, statementKeyOf, type StatementAdminDeps } from '../../admin-statement';

export interface MarkPayoutDeps extends StatementAdminDeps {
  royalties: StatementAdminDeps['royalties'] & Pick<RoyaltyStore, 'setPaid'>;
  now: () => Date;
}

/**
 * Marks a statement paid with the payment's reference (paid today unless `paidAt` says when) or
 * back to unpaid. A statement that pays no whole cent cannot be marked paid (409). The audit
 * entry (when, which admin, what) is appended in the same write; nothing else of the statement
 * changes. Answers the statement as stored after.
 */
export async function markStatementPayout(deps: MarkPayoutDeps, id: string | undefined, request: MarkPayoutRequest, adminEmail: string): Promise<AdminStatement> {
  const { month, talentId } = statementKeyOf(id);
  const at = deps.now().toISOString();
  const existing = await deps.royalties.getStatement(talentId, month);
  if (!existing) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  // Under a cent is carried to the next statement: there is no payment to record. (Unpaid stays
  // allowed, so a statement marked paid before this rule can be put right.)
  if (request.status === 'paid' && existing.totals.royaltyCents === 0) throw new ConflictError(NOTHING_DUE_MESSAGE);
  if (request.status === 'paid' && request.paidAt !== undefined) {
    // A payout is recorded once made: not ahead of today, not before the statement existed.
    if (Date.parse(request.paidAt) > Date.parse(at)) throw new ValidationError('paidAt must not be in the future', { paidAt: 'paidAt must not be in the future' });
    if (Date.parse(request.paidAt) < Date.parse(existing.closedAt)) throw new ValidationError('paidAt must not be before the statement was closed', { paidAt: 'paidAt must not be before the statement was closed' });
  }
  const amount = `$${dollarsOfCents(existing.totals.royaltyCents)}`;
  const paid = request.status === 'paid' ? { paidAt: request.paidAt ? new Date(request.paidAt).toISOString() : at, reference: request.reference, by: adminEmail } : undefined;
  const entry: StatementAuditEntry = paid
    ? { at, by: adminEmail, action: 'marked-paid', detail: `${amount} paid ${paid.paidAt.slice(0, 10)}, reference ${paid.reference}` }
    : { at, by: adminEmail, action: 'marked-unpaid', detail: existing.paid ? `was paid ${existing.paid.paidAt.slice(0, 10)}, reference ${existing.paid.reference}` : 'was not paid' };
  const updated = await deps.royalties.setPaid(talentId, month, paid, entry);
  if (!updated) throw new NotFoundError(STATEMENT_NOT_FOUND_MESSAGE);
  return adminStatementOf(deps, updated);
}
