// The catalog's part of a report's decision (docs/product.md#reports-and-takedown, decision 058):
// a reviewer's "remove the talent's sample" takes the named sample off the talent's profile.
import type { ReportDecidedV1 } from '../../../../events/reports';
import { log } from '../../../shared/log';
import type { TalentStore } from '../../store';

/**
 * Consumer of `Report.Decided`: for `remove-sample`, the sample the decision names leaves the
 * talent's `samples`, so the public profile no longer shows it. A repeated delivery finds it gone
 * and changes nothing.
 */
export async function removeReportedSample(store: Pick<TalentStore, 'removeSample'>, decided: ReportDecidedV1): Promise<'removed' | 'skipped'> {
  if (decided.action !== 'remove-sample' || !decided.talentId || !decided.sampleUrl) return 'skipped';
  const outcome = await store.removeSample(decided.talentId, decided.sampleUrl);
  log.info(outcome === 'removed' ? 'sample removed by a report decision' : 'no such sample to remove', { talentId: decided.talentId, reference: decided.reference });
  return outcome === 'removed' ? 'removed' : 'skipped';
}
