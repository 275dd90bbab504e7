import * as z from 'zod';
import { FAILURE_METRICS } from '../../../../events/metrics';
import { RUNNING_TRAINING_STATUSES, TRAINING_FAILURE_TEXTS, TRAINING_ID_PATTERN, type TrainingFailureCode } from '../../../../events/training-values';
import { log } from '../../../shared/log';
import { failureCodeOf } from '../../errors';
import { acceptanceTrainingId } from '../../keys';
import { isFinalStatus, type ReplicateApi } from '../../../shared/replicate';
import type { TrainingStore } from '../../store';

/**
 * What the state machine records: the training (or, when PrepareTraining failed, the execution's
 * input), and one of: the error a step ended with after its retries, Replicate's final status of
 * a training that did not succeed, or the time-out of the polls.
 */
export const RecordFailureInput = z.object({
  trainingId: z.string().regex(TRAINING_ID_PATTERN).optional(),
  input: z.object({ applicationId: z.string().min(1).max(100), trainingId: z.string().regex(TRAINING_ID_PATTERN).optional() }).optional(),
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
  training: z.object({ status: z.string(), error: z.string().optional() }).optional(),
  timedOut: z.boolean().optional(),
});
export type RecordFailureInput = z.infer<typeof RecordFailureInput>;

export interface RecordFailureDeps {
  store: Pick<TrainingStore, 'getTraining' | 'moveTraining'>;
  replicate: () => Promise<Pick<ReplicateApi, 'cancelTraining'>>;
  now: () => Date;
}

/**
 * Step RecordFailure: the training ends `failed` with its code (docs/training.md "Failures"),
 * a running training on Replicate is canceled (a time-out's, or one whose step failed after it
 * started), and the failure is counted (metric LikenessTrainingsFailed, with its alarm): the
 * console's training list shows it, and the console decides what comes next. Only the error's
 * name is kept, never its message.
 */
export async function recordFailure(deps: RecordFailureDeps, input: RecordFailureInput): Promise<{ recorded: boolean; code: TrainingFailureCode }> {
  const code: TrainingFailureCode = input.timedOut ? 'timed-out' : input.training ? 'trainer-failed' : failureCodeOf(input.error?.Error);
  const trainingId = input.trainingId ?? input.input?.trainingId ?? (input.input ? acceptanceTrainingId(input.input.applicationId) : undefined);
  const training = trainingId ? await deps.store.getTraining(trainingId) : undefined;
  const errorName = input.error?.Error ?? (input.training ? `replicate ${input.training.status}` : input.timedOut ? 'timed out' : undefined);
  if (training) {
    if (training.replicateTrainingId && !isFinalStatus(training.replicateStatus) && !(input.training && isFinalStatus(input.training.status))) {
      await (await deps.replicate()).cancelTraining(training.replicateTrainingId).catch((err: unknown) => log.error('could not cancel the training on Replicate', err, { trainingId }));
    }
    const at = deps.now().toISOString();
    const message = `${TRAINING_FAILURE_TEXTS[code]}${errorName ? ` (${errorName})` : ''}`;
    await deps.store.moveTraining(training.id, RUNNING_TRAINING_STATUSES, { status: 'failed', failure: { code, message, at }, taskToken: undefined, updatedAt: at });
  }
  log.metric(FAILURE_METRICS.trainingFailed, { fields: { trainingId, code, error: errorName } });
  return { recorded: Boolean(training), code };
}
