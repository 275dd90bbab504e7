import type { ErasureCounts, ErasureResult } from '../../../../events/erasure';
import { ConflictError } from '../../../shared/errors';
import { ApplicationBeingValidatedError, applicationPrefix, pendingPrefix, VerificationStillProcessingError, type FoundingErasure, type FoundingErasurePlan } from '../../../founding';
import { GenerationRunningError, refuseWhileRunning, type ClientGenerations } from '../../../generation';
import type { PaymentsErased } from '../../../payments';

/** Everything erasure reaches, one function per place (the handler binds them to AWS). */
export interface ErasureDeps {
  eraseWaitlist: (email: string) => Promise<number>;
  eraseMessages: (email: string) => Promise<number>;
  /** Finds the address's founding items, changing nothing (ApplicationBeingValidatedError while photos are written). */
  planFounding: (email: string) => Promise<FoundingErasurePlan>;
  eraseFounding: (plan: FoundingErasurePlan) => Promise<FoundingErasure>;
  /** Redacts the applications' ID verification sessions at Stripe (decision 056); returns how many were redacted now. */
  redactVerifications: (sessionIds: string[]) => Promise<number>;
  /** The generations made under the address and their accounts' licenses. */
  findGenerations: (email: string) => Promise<ClientGenerations>;
  /** Keeps each license's pixel hash, deletes the files, redacts the licenses and generations (marked erased `at`). */
  eraseGenerations: (found: ClientGenerations, at: Date) => Promise<{ generations: number; licenses: number; images: number }>;
  /** Deletes a talent's payout details and takes their name off their statements (marked erased `at`). */
  eraseTalentPayouts: (talentId: string, at: Date) => Promise<{ payoutDetails: number; statements: number }>;
  /** Deletes a talent's likeness model: its versions on Replicate, training sets and samples, then its records. */
  eraseLikenessModel: (talentId: string) => Promise<{ versions: number; files: number; records: number }>;
  /** Deletes every photo object under the prefix; returns how many. */
  deletePhotos: (prefix: string) => Promise<number>;
  /** Deletes the user accounts with this email; returns how many. */
  deleteAccounts: (email: string) => Promise<number>;
  /** Deletes the profiles, credits and audit of the accounts with this email; returns how many items. */
  eraseAccountData: (email: string) => Promise<number>;
  eraseIdempotencyRecords: (email: string) => Promise<number>;
  /**
   * The client's payments (functions/payments/erasure.ts): their Stripe subscriptions canceled at
   * once and customers deleted, our payments anonymised. Stripe failing answers 503 (retry later).
   */
  erasePayments: (email: string, at: Date) => Promise<PaymentsErased>;
  record: (email: string, erasedBy: string, removed: ErasureCounts, now: Date) => Promise<ErasureResult>;
  now: () => Date;
}

/**
 * Erases a person's data everywhere by their address (decisions 019 and 035), then records that
 * it was done: a hash of the address, when, by whom, and what was removed. Every step is
 * idempotent, so an erasure that failed part way is simply run again.
 *
 * First everything is found and nothing changed: while an application's photos are being
 * validated (written), or one of the person's generations is running (its delivery would write
 * files after), the admin is asked to try again in a few minutes. Then the talent the person's
 * accepted application became loses their payout details and their name on statements, and
 * their likeness model (its versions on Replicate, training sets, samples and records), while
 * the application still leads to them; then the founding items; then the account, so nobody
 * signs in while the rest is removed; then their generations (files deleted, licenses kept valid
 * for a client named ERASED_LICENSEE, generations without email, name and prompt).
 *
 * The client's payments go first of all, once nothing refuses: their subscriptions are canceled
 * and their customer deleted at Stripe, so nobody is charged after an erasure that said it was
 * done. When Stripe fails the erasure stops there (503), before anything else is erased, and the
 * admin runs it again.
 */
export async function erasePerson(deps: ErasureDeps, email: string, erasedBy: string): Promise<ErasureResult> {
  // One time for the whole erasure: the record's, and what every redacted item is marked with.
  const now = deps.now();
  const founding = await deps.planFounding(email).catch((err: unknown) => {
    if (err instanceof ApplicationBeingValidatedError) {
      throw new ConflictError('An application from this address is having its photos checked right now. Nothing was erased; try again in a few minutes.');
    }
    throw err;
  });
  const generations = await deps.findGenerations(email);
  try {
    refuseWhileRunning(generations, now);
  } catch (err) {
    if (err instanceof GenerationRunningError) {
      throw new ConflictError('An image generation of this address is running right now. Nothing was erased; try again in a few minutes.');
    }
    throw err;
  }

  const payments = await deps.erasePayments(email, now);
  let payoutDetails = 0;
  let statements = 0;
  let modelVersions = 0;
  let trainingFiles = 0;
  let trainingRecords = 0;
  for (const talentId of founding.talentIds) {
    const talent = await deps.eraseTalentPayouts(talentId, now);
    payoutDetails += talent.payoutDetails;
    statements += talent.statements;
    const model = await deps.eraseLikenessModel(talentId);
    modelVersions += model.versions;
    trainingFiles += model.files;
    trainingRecords += model.records;
  }
  // Stripe's copy of their ID verification (document images, number, date of birth) before the
  // items that name the sessions go: an erasure that fails here finds them again.
  if (founding.verificationSessionIds.length) {
    await deps.redactVerifications(founding.verificationSessionIds).catch((err: unknown) => {
      if (err instanceof VerificationStillProcessingError) throw new ConflictError('Stripe is checking an ID verification of this address right now, so it cannot be redacted yet. Run the erasure again in a few minutes.');
      throw err;
    });
  }
  const foundingErased = await deps.eraseFounding(founding);
  const accounts = await deps.deleteAccounts(email);
  const accountItems = await deps.eraseAccountData(email);
  const generated = await deps.eraseGenerations(generations, now);
  const waitlist = await deps.eraseWaitlist(email);
  const messages = await deps.eraseMessages(email);
  let photos = 0;
  for (const id of foundingErased.applicationIds) photos += await deps.deletePhotos(applicationPrefix(id));
  for (const folder of foundingErased.uploadFolders) photos += await deps.deletePhotos(pendingPrefix(folder));
  const idempotencyRecords = await deps.eraseIdempotencyRecords(email);
  const removed: ErasureCounts = {
    waitlist,
    messages,
    applications: foundingErased.applicationIds.length,
    applicationItems: foundingErased.items,
    photos,
    accounts,
    accountItems,
    idempotencyRecords,
    generations: generated.generations,
    licenses: generated.licenses,
    images: generated.images,
    payoutDetails,
    statements,
    modelVersions,
    trainingFiles,
    trainingRecords,
    subscriptionsCanceled: payments.subscriptionsCanceled,
    stripeCustomersDeleted: payments.stripeCustomersDeleted,
    paymentsAnonymised: payments.paymentsAnonymised,
  };
  return deps.record(email, erasedBy, removed, now);
}
