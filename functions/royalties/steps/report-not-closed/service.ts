import * as z from 'zod';
import { FAILURE_METRICS } from '../../../../events/metrics';
import { Month } from '../../../../events/royalties';
import { NOT_CLOSED_OUTCOME } from '../../../../events/royalty-values';
import { TALENT_ID_PATTERN } from '../../../../events/talent-values';
import { log } from '../../../shared/log';

/** What the RoyaltyClose machine passes when a talent's close failed for good: who, which month, the error's name. */
export const ReportNotClosedInput = z.object({
  talentId: z.string().regex(TALENT_ID_PATTERN, { error: 'talentId must be a talent id such as maya-chen' }),
  month: Month,
  /** The error's name as Step Functions caught it (StatementMismatch, MonthNotEnded, States.TaskFailed, ...). */
  error: z.string().min(1).max(200),
});
type ReportNotClosedInput = z.infer<typeof ReportNotClosedInput>;

/**
 * Step ReportNotClosed: a talent's statement of the month could not be closed (its close failed
 * for good). Counts it as the StatementsNotClosed metric, which alarms, naming the talent, the
 * month and the error's name (never its cause: a message may quote data). The close goes on with
 * the other talent and then fails the execution.
 */
export function reportNotClosed(input: ReportNotClosedInput): { talentId: string; outcome: typeof NOT_CLOSED_OUTCOME; error: string } {
  log.metric(FAILURE_METRICS.statementNotClosed, { fields: { talentId: input.talentId, month: input.month, error: input.error } });
  return { talentId: input.talentId, outcome: NOT_CLOSED_OUTCOME, error: input.error };
}
