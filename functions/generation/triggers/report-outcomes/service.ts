import type { LicenseReinstatedV1, LicenseRevokedV1, ReportDecidedV1, ReportReceivedV1 } from '../../../../events/reports';
import { log } from '../../../shared/log';
import type { GenerationStore } from '../../store';

export type OutcomeStore = Pick<GenerationStore, 'withholdLicense' | 'releaseLicense' | 'revokeLicense' | 'reinstateLicense'>;

/** `Report.Received` naming an image to withhold (an intimate report that matched): hidden at once while it waits. */
export async function withholdReported(store: OutcomeStore, detail: ReportReceivedV1): Promise<'withheld' | 'skipped'> {
  if (!detail.withheldLicenseId) return 'skipped';
  const done = await store.withholdLicense(detail.withheldLicenseId, detail.reference);
  log.info(done ? 'license image withheld for a report' : 'no license to withhold', { licenseId: detail.withheldLicenseId, reference: detail.reference });
  return done ? 'withheld' : 'skipped';
}

/** `License.Revoked`: the license says revoked (date, reason) and its image is withheld from the client for good. */
export async function revokeReported(store: OutcomeStore, detail: LicenseRevokedV1): Promise<'revoked' | 'skipped'> {
  const done = await store.revokeLicense(detail.licenseId, { revokedAt: detail.revokedAt, reason: detail.reason, reference: detail.reference });
  log.info(done ? 'license revoked' : 'no license to revoke', { licenseId: detail.licenseId, reference: detail.reference });
  return done ? 'revoked' : 'skipped';
}

/**
 * `License.Reinstated`: an appeal against the revocation was upheld; the revocation the case made
 * is taken back (the license is valid again, its image back for the client). A repeat, or a
 * license revoked by another case, changes nothing.
 */
export async function reinstateReported(store: OutcomeStore, detail: LicenseReinstatedV1): Promise<'reinstated' | 'skipped'> {
  const done = await store.reinstateLicense(detail.licenseId, detail.reference);
  log.info(done ? 'license reinstated after appeal' : 'no revocation of this case to take back', { licenseId: detail.licenseId, reference: detail.reference });
  return done ? 'reinstated' : 'skipped';
}

/** `Report.Decided`: a decision ends the case's withholding (a revocation keeps the image withheld through the license itself). */
export async function settleReported(store: OutcomeStore, detail: ReportDecidedV1): Promise<'released' | 'skipped'> {
  if (!detail.licenseId) return 'skipped';
  return (await store.releaseLicense(detail.licenseId, detail.reference)) ? 'released' : 'skipped';
}
