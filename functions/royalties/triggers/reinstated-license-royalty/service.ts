// The royalty of a license reinstated on appeal (docs/decisions/061): the take-back its revocation
// wrote is undone by a second record, never by an edit, so the first close after it pays back
// what the take-back took. Once per license: a repeat of the event writes nothing more.
import type { LicenseReinstatedV1 } from '../../../../events/reports';
import { log } from '../../../shared/log';
import type { RoyaltyStore } from '../../store';

export type ReinstatementRoyaltyStore = Pick<RoyaltyStore, 'licenseOf' | 'getTakenBack' | 'putGivenBack'>;

/**
 * `License.Reinstated`: gives back the royalty the case's revocation took back (`given-back`;
 * `already` when it was before). A royalty taken back by something else (a refund) stays taken
 * back, and a revocation that was not the client's breach took nothing (`nothing-taken`).
 */
export async function giveBackReinstatedRoyalty(store: ReinstatementRoyaltyStore, event: LicenseReinstatedV1): Promise<'given-back' | 'already' | 'nothing-taken' | 'no-license'> {
  const license = await store.licenseOf(event.licenseId);
  if (!license) {
    log.warn('a reinstated license was not found: no royalty to give back', { licenseId: event.licenseId, reference: event.reference });
    return 'no-license';
  }
  const key = `report:${event.reference}`;
  const taken = await store.getTakenBack(license.talentId, event.licenseId);
  if (taken?.key !== key) {
    log.info('nothing this report took back to give back', { licenseId: event.licenseId, reference: event.reference });
    return 'nothing-taken';
  }
  const written = await store.putGivenBack({
    talentId: license.talentId,
    licenseId: event.licenseId,
    at: event.reinstatedAt,
    reason: `Royalty given back: license ${event.licenseId} reinstated on appeal of report ${event.reference}`,
    key,
  });
  log.info(written ? 'royalty given back for a reinstated license' : 'the royalty of the reinstated license was already given back', { licenseId: event.licenseId, reference: event.reference });
  return written ? 'given-back' : 'already';
}
