// Keys of the Generations table (docs/generation.md, decision 027): generations, their licenses,
// and per talent the monthly usage counters and royalty accruals.

// A client's generations (`accountKey` = ACCOUNT#{id}) and every generation under one key
// (`listKey` = GENERATION), newest first: indexes named where the stack names them too.
export { GENERATIONS_ACCOUNT_INDEX as ACCOUNT_INDEX, GENERATIONS_CREATED_INDEX as CREATED_INDEX } from '../../events/resource-names';
export const LIST_PARTITION = 'GENERATION';

export const generationKeys = {
  generation: (id: string) => ({ pk: `GEN#${id}`, sk: 'GEN' }),
  license: (id: string) => ({ pk: `LIC#${id}`, sk: 'LIC' }),
  talent: (talentId: string) => `TALENT#${talentId}`,
  /** Images made with a talent's likeness in a UTC month (`YYYY-MM`). */
  usage: (talentId: string, month: string) => ({ pk: `TALENT#${talentId}`, sk: `USAGE#${month}` }),
  usagePrefix: 'USAGE#',
  /**
   * One royalty accrual per license, under the month it was issued in. The monthly close claims it
   * for a statement (`statementMonth`, set once); an unclaimed one of an earlier month arrived
   * after that month closed and is claimed by the next close.
   */
  accrual: (talentId: string, month: string, licenseId: string) => ({ pk: `TALENT#${talentId}`, sk: `ACCRUAL#${month}#${licenseId}` }),
  accrualPrefix: 'ACCRUAL#',
  /**
   * A license paid with a credit of a purchase (`source`: `invoice:<id>`, `checkout:<id>`), by
   * the client's account: a refund of that purchase finds the licenses whose royalties it takes
   * back (docs/payouts.md "Money taken back"). Written with the license; `takenBackBy` once taken.
   */
  creditUse: (accountId: string, source: string, issuedAt: string, licenseId: string) => ({ pk: `CREDITS#${accountId}#${source}`, sk: `LIC#${issuedAt}#${licenseId}` }),
  creditUses: (accountId: string, source: string) => `CREDITS#${accountId}#${source}`,
  /**
   * A license's royalty taken back for a refund: one per license, ever. The first close after it
   * claims it (`statementMonth`) with the royalty it takes (`royaltyMicros`).
   */
  takenBack: (talentId: string, licenseId: string) => ({ pk: `TALENT#${talentId}`, sk: `TAKEBACK#${licenseId}` }),
  takenBackPrefix: 'TAKEBACK#',
  accountKey: (accountId: string) => `ACCOUNT#${accountId}`,
  /**
   * Admission under Replicate's creation limit (decision 065): one partition holds the creation
   * bucket (`BUCKET`, with the client served last) and a start waiting for admission
   * (`WAIT#<accountId>#<queuedAt>#<generationId>`), so one query reads both.
   */
  admissionPartition: 'ADMISSION',
  admissionBucket: { pk: 'ADMISSION', sk: 'BUCKET' },
  admissionEntry: (accountId: string, queuedAt: string, generationId: string) => ({ pk: 'ADMISSION', sk: `WAIT#${accountId}#${queuedAt}#${generationId}` }),
  admissionEntryPrefix: 'WAIT#',
  /** A client's generations the image model failed on a UTC day (`YYYY-MM-DD`): the daily budget's counter (decision 038). */
  modelFailures: (accountId: string, day: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `MODEL-FAILURES#${day}` }),
  /**
   * A talent's closed statement for a month (docs/royalties.md). Written once by the monthly
   * close; only its payout fields change after. Listed by month through the `byCreated` index:
   * `listKey` = statementListKey(month), `createdAt` = the close time.
   */
  statement: (talentId: string, month: string) => ({ pk: `TALENT#${talentId}`, sk: `STATEMENT#${month}` }),
  statementPrefix: 'STATEMENT#',
  statementListKey: (month: string) => `STATEMENTS#${month}`,
  /**
   * Where a talent's monthly payouts went before Stripe payouts (a PayPal or Wise email, account
   * holder): no longer written; erasure deletes one left from before.
   */
  payoutDetails: (talentId: string) => ({ pk: `TALENT#${talentId}`, sk: 'PAYOUT' }),
  /**
   * An ended exclusive contract, kept for the record (the catalog item holds the current one).
   * `FREEZE#` is the prefix these items are stored under, kept as it is.
   */
  contractHistory: (talentId: string, contractId: string) => ({ pk: `TALENT#${talentId}`, sk: `FREEZE#${contractId}` }),
  contractHistoryPrefix: 'FREEZE#',
};

/** `YYYY-MM` of an ISO time, in UTC. */
export const monthOf = (iso: string) => iso.slice(0, 7);
