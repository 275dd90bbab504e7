import * as z from 'zod';
import { ROYALTIES_MONTH_CLOSED, RoyaltiesMonthClosedV1 } from '../../../../events/royalty-events';

export const AnnounceCloseInput = z.object({ month: RoyaltiesMonthClosedV1.shape.month });

export interface AnnounceCloseDeps {
  publish: (detailType: string, detail: RoyaltiesMonthClosedV1) => Promise<void>;
}

/**
 * Step AnnounceClose of the RoyaltyClose state machine: publishes `Royalties.MonthClosed` for the
 * month, after every talent's close was tried (closed or not: the payout run pays what is
 * closed, and a rerun of the close announces again; the payout run pays nothing twice).
 */
export async function announceClose(deps: AnnounceCloseDeps, input: z.infer<typeof AnnounceCloseInput>): Promise<{ month: string; announced: true }> {
  await deps.publish(ROYALTIES_MONTH_CLOSED, { version: 1, month: input.month });
  return { month: input.month, announced: true };
}
