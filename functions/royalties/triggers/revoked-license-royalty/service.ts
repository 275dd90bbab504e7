// The royalty of a license revoked for the client's breach (decision 058, docs/decisions/061):
// taken back with the same record a refund writes, so the first close after it takes it off the
// talent's statement (never below zero). Once per license: a repeat of the event, or a license
// whose royalty a refund already took back, writes nothing more.
import type { LicenseRevokedV1 } from '../../../../events/reports';
import { log } from '../../../shared/log';
import { monthOfIso } from '../../arithmetic';
import type { RoyaltyStore } from '../../store';

export type RevocationRoyaltyStore = Pick<RoyaltyStore, 'licenseOf' | 'putTakenBack'>;

/** The key of a take-back for a report's revocation: one per report, named in the record. */
const reportKey = (reference: string) => `report:${reference}`;

/** The plain line the talent's statement shows for it. */
const revokedRoyaltyReason = (licenseId: string, reference: string) => `Royalty taken back: license ${licenseId} revoked after report ${reference}`;

/**
 * `License.Revoked`: when the revocation is for the client's breach, the license's royalty is
 * taken back (`taken-back`; `already` when it was before, by this revocation or a refund).
 * Another revocation keeps the royalty (`kept`).
 */
export async function takeBackRevokedRoyalty(store: RevocationRoyaltyStore, event: LicenseRevokedV1): Promise<'taken-back' | 'already' | 'kept' | 'no-license'> {
  if (!event.clientBreach) return 'kept';
  const license = await store.licenseOf(event.licenseId);
  if (!license) {
    log.warn('a revoked license was not found: no royalty to take back', { licenseId: event.licenseId, reference: event.reference });
    return 'no-license';
  }
  const written = await store.putTakenBack({
    talentId: license.talentId,
    licenseId: event.licenseId,
    accrualMonth: monthOfIso(license.issuedAt),
    at: event.revokedAt,
    reason: revokedRoyaltyReason(event.licenseId, event.reference),
    key: reportKey(event.reference),
    accountId: license.accountId,
  });
  log.info(written ? 'royalty taken back for a revoked license' : 'the royalty of the revoked license was already taken back', { licenseId: event.licenseId, reference: event.reference });
  return written ? 'taken-back' : 'already';
}
