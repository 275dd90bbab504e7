// Royalties taken back for a refund (docs/payouts.md "Money taken back"): a refund or a lost
// dispute asked back credits of a purchase that were already spent on licensed images. The
// royalties those images earned come off the talent's next statement. Safe to repeat: each
// license is marked once, by the take-back's key, before its record is written; a rerun counts
// what its key already marked and writes the records again (each once per license).
import type { PaymentsSpentCreditsRefundedV1 } from '../../../../events/payment-events';
import { log } from '../../../shared/log';
import type { RoyaltyStore } from '../../store';

export type TakeBackStore = Pick<RoyaltyStore, 'creditUses' | 'markTakenBack' | 'putTakenBack'>;

/**
 * Takes back the royalties of `credits` licenses paid with the purchase's credits, the most
 * recently issued first (one take-back never takes a license twice, and another take-back of the
 * same purchase takes other licenses). Answers how many licenses this take-back holds. Fewer are
 * found than asked when credits of the purchase were spent before licenses recorded their
 * purchase, or on images that earn nothing: those are logged.
 */
export async function takeBackRoyalties(store: TakeBackStore, event: PaymentsSpentCreditsRefundedV1): Promise<{ licenses: number }> {
  const uses = await store.creditUses(event.accountId, event.source);
  const mine = uses.filter((u) => u.takenBackBy === event.key);
  for (const use of uses) {
    if (mine.length >= event.credits) break;
    if (use.takenBackBy !== undefined) continue;
    if (await store.markTakenBack(use, event.key, event.at)) mine.push(use);
  }
  for (const use of mine) {
    await store.putTakenBack({
      talentId: use.talentId,
      licenseId: use.licenseId,
      accrualMonth: use.month,
      at: event.at,
      reason: event.reason,
      key: event.key,
      accountId: event.accountId,
    });
  }
  if (mine.length < event.credits) {
    log.warn('fewer licenses found than credits refunded: their royalties are not taken back', { key: event.key, asked: event.credits, found: mine.length });
  }
  log.info('royalties taken back', { key: event.key, licenses: mine.length });
  return { licenses: mine.length };
}
