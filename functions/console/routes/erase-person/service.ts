import type { ErasureCounts, ErasureResult } from '../../../../events/erasure';
import { ConflictError } from '../../../shared/errors';
import { ApplicationBeingValidatedError, applicationPrefix, pendingPrefix, type FoundingErasure } from '../../../founding';

/** Everything erasure reaches, one function per place (the handler binds them to AWS). */
export interface ErasureDeps {
  eraseWaitlist: (email: string) => Promise<number>;
  eraseMessages: (email: string) => Promise<number>;
  eraseFounding: (email: string) => Promise<FoundingErasure>;
  /** Deletes every photo object under the prefix; returns how many. */
  deletePhotos: (prefix: string) => Promise<number>;
  /** Deletes the user accounts with this email; returns how many. */
  deleteAccounts: (email: string) => Promise<number>;
  /** Deletes the profiles, credits and audit of the accounts with this email; returns how many items. */
  eraseAccountData: (email: string) => Promise<number>;
  eraseIdempotencyRecords: (email: string) => Promise<number>;
  record: (email: string, erasedBy: string, removed: ErasureCounts, now: Date) => Promise<ErasureResult>;
  now: () => Date;
}

/**
 * Erases a person's data everywhere by their address (decision 019), then records that it was
 * done: a hash of the address, when, by whom, and what was removed. Every step is idempotent,
 * so an erasure that failed part way is simply run again.
 *
 * Founding items go first: while an application's photos are being validated (written), nothing
 * is erased and the admin is asked to try again in a few minutes. Then the account, so nobody
 * signs in while the rest is removed.
 */
export async function erasePerson(deps: ErasureDeps, email: string, erasedBy: string): Promise<ErasureResult> {
  const founding = await deps.eraseFounding(email).catch((err: unknown) => {
    if (err instanceof ApplicationBeingValidatedError) {
      throw new ConflictError('An application from this address is having its photos checked right now. Nothing was erased; try again in a few minutes.');
    }
    throw err;
  });
  const accounts = await deps.deleteAccounts(email);
  const accountItems = await deps.eraseAccountData(email);
  const waitlist = await deps.eraseWaitlist(email);
  const messages = await deps.eraseMessages(email);
  let photos = 0;
  for (const id of founding.applicationIds) photos += await deps.deletePhotos(applicationPrefix(id));
  for (const folder of founding.uploadFolders) photos += await deps.deletePhotos(pendingPrefix(folder));
  const idempotencyRecords = await deps.eraseIdempotencyRecords(email);
  const removed: ErasureCounts = {
    waitlist,
    messages,
    applications: founding.applicationIds.length,
    applicationItems: founding.items,
    photos,
    accounts,
    accountItems,
    idempotencyRecords,
  };
  return deps.record(email, erasedBy, removed, deps.now());
}
