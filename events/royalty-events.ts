// Domain events of royalties on our bus (docs/royalties.md "Monthly close", docs/payouts.md).
import * as z from 'zod';

/**
 * `Royalties.MonthClosed`: the monthly close has run for a month (some statements may still be
 * unclosed: those are alarmed and closed by a rerun). The payouts wing consumes it to pay the
 * month's statements. Carries the month only; consumers read the statements.
 */
export const RoyaltiesMonthClosedV1 = z.object({
  version: z.literal(1),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month must be a month such as 2026-11' }),
});
export type RoyaltiesMonthClosedV1 = z.infer<typeof RoyaltiesMonthClosedV1>;
export const ROYALTIES_MONTH_CLOSED = 'Royalties.MonthClosed';
