import { FAILURE_METRICS } from '../../../../events/metrics';
import { TRAINING_ID_PATTERN, TRAINING_NOT_FOUND_MESSAGE } from '../../../../events/training-values';
import { verifyReplicateWebhook } from '../../../shared/replicate-webhooks';
import { ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import { ONE_DAY, type Once } from '../../../shared/idempotency';
import { json, type HttpEvent, type HttpResult } from '../../../shared/http';
import { log } from '../../../shared/log';
import { isRaceLost, retryRaces } from '../../../shared/retry';
import { clientIpOf, type RateLimiter } from '../../../shared/rate-limit';
import { outcomeOf, type TrainingOutcome } from '../../outcome';
import { isFinalStatus } from '../../../shared/replicate';
import type { TrainingStore } from '../../store';

export interface TrainingWebhookDeps {
  store: Pick<TrainingStore, 'getTraining' | 'adoptReplicateTraining' | 'recordReplicateStatus' | 'updateTraining'>;
  /** Replicate's webhook signing secret (`whsec_...`). */
  secret: () => Promise<string>;
  /** Resumes the waiting step (`resumeTask`): `false` when the token is spent (polling took over). */
  resume: (taskToken: string, output: TrainingOutcome) => Promise<boolean>;
  limit: RateLimiter;
  /** Each delivery (`webhook-id`) is applied once. */
  once: Once;
  now: () => Date;
}

/** Deliveries one address may make a minute: generous for Replicate, a ceiling for a flood. */
const WEBHOOKS_PER_MINUTE = 600;
const WEBHOOK_RATE_MESSAGE = 'Too many webhook deliveries from this address. Try again in a minute.';
export const TRAINING_MISMATCH_MESSAGE = 'This Replicate training does not belong to this training.';

const rawBodyOf = (event: HttpEvent) => (!event.body ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);

/**
 * `POST /webhooks/replicate-training?training=<id>`: Replicate's webhook of a training, verified
 * as the generation's is (Standard Webhooks, with the account's secret: 401 and nothing read on
 * a bad signature). Each delivery is applied once. A running training's id is recorded when none
 * is (its create's answer may be lost); a final status is stored on the training and resumes the
 * execution waiting for it. The version, duration and cost are read from Replicate by the
 * workflow's RecordVersion, never taken from the webhook.
 */
export async function handleTrainingWebhook(deps: TrainingWebhookDeps, event: HttpEvent): Promise<HttpResult> {
  await deps.limit([{ name: 'replicate-training-webhook.ip', subject: clientIpOf(event), limit: WEBHOOKS_PER_MINUTE, windowSeconds: 60, message: WEBHOOK_RATE_MESSAGE }]);
  const { webhookId, prediction: replicate } = verifyReplicateWebhook(await deps.secret(), event.headers ?? {}, rawBodyOf(event));

  const trainingId = event.queryStringParameters?.training ?? '';
  if (!TRAINING_ID_PATTERN.test(trainingId)) throw new ValidationError('training must be the id of the training this webhook is for');
  const training = await deps.store.getTraining(trainingId);
  if (!training) throw new NotFoundError(TRAINING_NOT_FOUND_MESSAGE);
  if (training.replicateTrainingId && training.replicateTrainingId !== replicate.id) throw new ConflictError(TRAINING_MISMATCH_MESSAGE);

  const applyOnce = () => deps.once<{ webhookId: string }, 'applied' | 'replay'>(
    { name: 'replicate-training-webhook', key: 'webhookId', expiresAfterSeconds: ONE_DAY, onReplay: () => 'replay' },
    { webhookId },
    async () => {
      try {
        await apply(deps, trainingId, replicate);
      } catch (err) {
        // A lost race is tried again below, not alarmed.
        if (!isRaceLost(err)) log.metric(FAILURE_METRICS.webhookApplyFailed, { fields: { trainingId, error: err instanceof Error ? err.name : typeof err } });
        throw err;
      }
      return 'applied';
    },
  );
  // Deliveries of one prediction (processing, then succeeded; or the same one twice) can arrive
  // together: a lost race is tried again at once rather than left for Replicate's retry.
  const outcome = await retryRaces(applyOnce);
  return json(200, outcome === 'replay' ? { received: true, replay: true } : { received: true });
}

async function apply(deps: TrainingWebhookDeps, trainingId: string, replicate: { id: string; status: string; error: string | null }): Promise<void> {
  const at = deps.now().toISOString();
  if (!isFinalStatus(replicate.status)) {
    if (!(await deps.store.adoptReplicateTraining(trainingId, replicate.id))) throw new ConflictError(TRAINING_MISMATCH_MESSAGE);
    if (replicate.status === 'processing') await deps.store.recordReplicateStatus(trainingId, replicate, at);
    return;
  }
  const stored = await deps.store.recordReplicateStatus(trainingId, replicate, at);
  if (stored.mismatch) throw new ConflictError(TRAINING_MISMATCH_MESSAGE);
  log.info('training webhook: completed', { trainingId, status: replicate.status });
  if (!stored.taskToken) return;
  if (!(await deps.resume(stored.taskToken, outcomeOf(replicate)))) {
    log.info('the execution no longer waits for this webhook (polling took over)', { trainingId });
  }
}
