// Domain events of payments on our bus (docs/payments.md "Refunds and disputes", docs/payouts.md
// "Money taken back").
import * as z from 'zod';

/**
 * `Payments.SpentCreditsRefunded`: a refund or a lost dispute asked back credits of a purchase
 * that the client had already spent on licensed images. The royalties wing consumes it: the
 * royalties those images earned are taken back on the talent's next statement. `key` names the
 * take-back (the ledger's key: `refund:<charge>:<refunded total>` or `dispute:<id>`), so a second
 * delivery of the same event takes nothing more.
 */
export const PaymentsSpentCreditsRefundedV1 = z.object({
  version: z.literal(1),
  accountId: z.string().min(1),
  /** The purchase whose credits were spent: the credit lots' `source` (`invoice:<id>`, `checkout:<id>`). */
  source: z.string().min(1).max(200),
  /** How many of its spent credits are asked back. */
  credits: z.number().int().positive(),
  key: z.string().min(1).max(300),
  /** In words, for the talent's statement ("The client's payment was refunded"): never the client or what they bought. */
  reason: z.string().min(1).max(200),
  /** When the refund or dispute was applied: the next statement closed after it takes the royalties back. */
  at: z.iso.datetime(),
});
export type PaymentsSpentCreditsRefundedV1 = z.infer<typeof PaymentsSpentCreditsRefundedV1>;
export const PAYMENTS_SPENT_CREDITS_REFUNDED = 'Payments.SpentCreditsRefunded';
