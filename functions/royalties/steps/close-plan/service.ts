import * as z from 'zod';
import { Month } from '../../../../events/royalties';
import { assertMonthEnded, previousMonth } from '../../arithmetic';

/**
 * The close's input: the Scheduled Event of the monthly rule (its `time`, the 1st at 01:00 UTC,
 * closes the month before) or `{ month }`, an operator's rebuild of a given month.
 */
export const CloseInput = z.union(
  [
    z.object({ month: Month }).loose(),
    z.object({ time: z.iso.datetime({ error: 'time must be an ISO date-time (the Scheduled Event\'s)' }) }).loose(),
  ],
  { error: 'The close needs a Scheduled Event (time) or { month: "YYYY-MM" }' },
);
type CloseInput = z.infer<typeof CloseInput>;

interface PlanCloseDeps {
  /** Every talent id of the catalog, whatever its status (hidden and removed talent are paid too). */
  talentIds: () => Promise<string[]>;
  now: () => Date;
}

/**
 * Step PlanClose: the month to close and the talent to close it for (the Map's items). A month
 * that has not ended by the clock (UTC), whoever names it (an operator's `{ month }`, or a
 * Scheduled Event's `time` in the future), is refused with MonthNotEnded: nothing is closed.
 */
export async function planClose(deps: PlanCloseDeps, input: CloseInput): Promise<{ month: string; talentIds: string[] }> {
  const month = 'month' in input && typeof input.month === 'string' ? input.month : previousMonth((input as { time: string }).time);
  assertMonthEnded(month, deps.now());
  const talentIds = [...new Set(await deps.talentIds())].sort();
  return { month, talentIds };
}
