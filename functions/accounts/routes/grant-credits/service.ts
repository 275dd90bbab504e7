import type { GrantCategory } from '../../../../events/account-values';
import type { LedgerEntry } from '../../../../events/accounts';
import { PROMOTIONAL_LOT, TESTING_LOT, type CreditLot } from '../../../../events/plans';
import { ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import { ACCOUNT_NOT_FOUND_MESSAGE, type AccountStore, type Actor } from '../../store';
import type { CreditLedger } from '../../credits';

export const TALENT_HAS_NO_CREDITS_MESSAGE = 'Only client accounts have credits: this is a talent account.';
export const GRANT_KEY_REQUIRED_MESSAGE =
  'Send an Idempotency-Key header with each grant (one per grant dialog), so a repeated click grants the credits once.';

/** The ledger's idempotency key of an admin grant: the console's key, kept apart from the ledger's own keys. */
export const adminGrantKey = (key: string) => `admin-grant#${key}`;

/**
 * The lot of an admin's grant (decision 036): promotional credits, valued at the cheapest paid
 * credit; a grant for testing is worth nothing and earns talent nothing.
 */
export const adminGrantLot = (category: GrantCategory): CreditLot => (category === 'testing' ? TESTING_LOT : PROMOTIONAL_LOT);

/**
 * Grants credits to a client: one ledger entry naming the admin and the reason, its lot by the
 * reason's category, and its audit entry, written once per `key` (a repeat answers the first grant).
 */
export async function grantCredits(
  deps: { accounts: Pick<AccountStore, 'get'>; ledger: Pick<CreditLedger, 'grant'> },
  id: string,
  grant: { credits: number; category: GrantCategory; reason: string; key: string | undefined },
  by: Actor,
): Promise<{ entry: LedgerEntry; balance: number; replayed: boolean }> {
  if (!grant.key) throw new ValidationError(GRANT_KEY_REQUIRED_MESSAGE, { 'Idempotency-Key': GRANT_KEY_REQUIRED_MESSAGE });
  const account = await deps.accounts.get(id);
  if (!account) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  if (account.role !== 'client') throw new ConflictError(TALENT_HAS_NO_CREDITS_MESSAGE);
  return deps.ledger.grant(id, {
    credits: grant.credits,
    reason: grant.reason,
    key: adminGrantKey(grant.key),
    lot: adminGrantLot(grant.category),
    category: grant.category,
    by,
  });
}
