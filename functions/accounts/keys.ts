// Keys of the Accounts table (docs/product.md#accounts, decision 021). One partition per account
// holds its profile, role, credit balance, ledger entries, ledger idempotency guards, open
// reservations per generation and the console's audit of admin changes.

// The email index and the console's listing index are named where the stack names them too.
export { ACCOUNTS_EMAIL_INDEX as EMAIL_INDEX, ACCOUNTS_LIST_INDEX as LIST_INDEX } from '../../events/resource-names';
/** The listing index's one partition value, carried by profile items only. */
export const LIST_PARTITION = 'ACCOUNT';

const pk = (accountId: string) => `ACCOUNT#${accountId}`;

export const accountKeys = {
  pk,
  profile: (id: string) => ({ pk: pk(id), sk: 'PROFILE' }),
  role: (id: string) => ({ pk: pk(id), sk: 'ROLE' }),
  balance: (id: string) => ({ pk: pk(id), sk: 'BALANCE' }),
  /**
   * Ledger entries by their sequence number on the balance (1 for the first), so a query newest
   * first reads them in the order they were written.
   */
  ledger: (id: string, seq: number) => ({ pk: pk(id), sk: `LEDGER#${String(seq).padStart(12, '0')}` }),
  ledgerPrefix: 'LEDGER#',
  guard: (id: string, key: string) => ({ pk: pk(id), sk: `KEY#${key}` }),
  reservation: (id: string, generationId: string) => ({ pk: pk(id), sk: `GEN#${generationId}` }),
  /** What became of one purchase's credits beyond the balance: `expired` and `expiredTakenBack` (decision 049). */
  source: (id: string, source: string) => ({ pk: pk(id), sk: `SOURCE#${source}` }),
  audit: (id: string, at: string, auditId: string) => ({ pk: pk(id), sk: `AUDIT#${at}#${auditId}` }),
  auditPrefix: 'AUDIT#',
};

/** How emails are compared: Cognito signs people in case-insensitively. */
export const emailKeyOf = (email: string) => email.trim().toLowerCase();
