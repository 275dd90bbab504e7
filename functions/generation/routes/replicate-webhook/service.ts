import { GENERATION_ID_PATTERN, GENERATION_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import { FAILURE_METRICS } from '../../../../events/metrics';
import type { Prediction } from '../../../shared/replicate';
import { verifyReplicateWebhook } from '../../../shared/replicate-webhooks';
import { ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import { ONE_DAY, type Once } from '../../../shared/idempotency';
import { json, type HttpEvent, type HttpResult } from '../../../shared/http';
import { log } from '../../../shared/log';
import { isRaceLost, retryRaces } from '../../../shared/retry';
import { clientIpOf, type RateLimiter } from '../../../shared/rate-limit';
import type { GenerationStore } from '../../store';
import { isFinalPrediction, outcomeOf, storedPrediction, type PredictionOutcome } from '../../prediction';

export interface WebhookDeps {
  store: GenerationStore;
  /** Replicate's webhook signing secret (`whsec_...`). */
  secret: () => Promise<string>;
  /** Resumes the waiting step (`resumeTask`): `false` when the token is spent (the poll path won). */
  resume: (taskToken: string, output: PredictionOutcome) => Promise<boolean>;
  limit: RateLimiter;
  /** The idempotency utility: each delivery (`webhook-id`) is applied once. */
  once: Once;
  now: () => Date;
}

/** Deliveries one address may make a minute: generous for Replicate, a ceiling for a flood. */
const WEBHOOKS_PER_MINUTE = 600;
const WEBHOOK_RATE_MESSAGE = 'Too many webhook deliveries from this address. Try again in a minute.';
export const PREDICTION_MISMATCH_MESSAGE = 'This prediction does not belong to this generation.';

function rawBodyOf(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * `POST /webhooks/replicate?generation=<id>`: a Replicate webhook. The signature is checked
 * first (401, nothing read or changed, on a bad one). Each delivery (`webhook-id`) is applied
 * once through the idempotency utility: a replay answers 200 and changes nothing; an apply that
 * fails leaves no record (500), so Replicate's retry of it is applied. A running prediction's
 * id is recorded when none is, and `processing` moves the status on; a final one is stored on
 * the generation and resumes the execution waiting for it.
 */
export async function handleReplicateWebhook(deps: WebhookDeps, event: HttpEvent): Promise<HttpResult> {
  await deps.limit([{ name: 'replicate-webhook.ip', subject: clientIpOf(event), limit: WEBHOOKS_PER_MINUTE, windowSeconds: 60, message: WEBHOOK_RATE_MESSAGE }]);
  const { webhookId, prediction } = verifyReplicateWebhook(await deps.secret(), event.headers ?? {}, rawBodyOf(event));

  const generationId = event.queryStringParameters?.generation ?? '';
  if (!GENERATION_ID_PATTERN.test(generationId)) throw new ValidationError('generation must be the id of the generation this webhook is for');
  const generation = await deps.store.getForWorkflow(generationId);
  if (!generation) throw new NotFoundError(GENERATION_NOT_FOUND_MESSAGE);
  if (generation.predictionId && generation.predictionId !== prediction.id) throw new ConflictError(PREDICTION_MISMATCH_MESSAGE);
  const final = isFinalPrediction(prediction.status);

  // Kept a day: Replicate retries a delivery for about a minute.
  const applyOnce = () => deps.once<{ webhookId: string }, 'applied' | 'replay'>(
    { name: 'replicate-webhook', key: 'webhookId', expiresAfterSeconds: ONE_DAY, onReplay: () => 'replay' },
    { webhookId },
    async () => {
      try {
        await apply(deps, generationId, prediction, final);
      } catch (err) {
        // A signed delivery that cannot be applied: Replicate retries it for about a minute,
        // then the generation waits on its polls; either way somebody must look.
        // A lost race is tried again below, not alarmed.
        if (!isRaceLost(err)) log.metric(FAILURE_METRICS.webhookApplyFailed, { fields: { generationId, error: err instanceof Error ? err.name : typeof err } });
        throw err;
      }
      return 'applied';
    },
  );
  // Deliveries of one prediction (processing, then succeeded; or the same one twice) can arrive
  // together: a lost race is tried again at once rather than left for Replicate's retry.
  const outcome = await retryRaces(applyOnce);
  if (outcome === 'replay') {
    log.info('webhook replayed; nothing changed', { generationId });
    return json(200, { received: true, replay: true });
  }
  return json(200, { received: true });
}

async function apply(deps: WebhookDeps, generationId: string, prediction: Prediction, final: boolean): Promise<void> {
  const at = deps.now().toISOString();
  if (!final) {
    // The signed delivery to this generation's URL names its prediction: recorded when StartPrediction
    // has not (its create's answer may be lost; its retry finds the id here, decision 038).
    if (!(await deps.store.adoptPrediction(generationId, prediction.id, at))) throw new ConflictError(PREDICTION_MISMATCH_MESSAGE);
    if (prediction.status !== 'processing') return;
    await deps.store.recordStep(generationId, { step: 'Webhook', at, detail: 'processing' }, { status: 'processing' }, { from: ['queued', 'starting'], prediction: prediction.id });
    return;
  }
  const stored = await deps.store.storeFinalPrediction(generationId, storedPrediction(prediction), at);
  if (stored.mismatch) throw new ConflictError(PREDICTION_MISMATCH_MESSAGE);
  await deps.store.recordStep(generationId, { step: 'Webhook', at, detail: `completed: ${prediction.status}` });
  if (!stored.taskToken) return;
  if (!(await deps.resume(stored.taskToken, outcomeOf(prediction)))) {
    log.info('the execution no longer waits for this webhook (polling took over)', { generationId });
  }
}
