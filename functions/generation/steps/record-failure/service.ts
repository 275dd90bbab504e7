import {
  FINAL_STATUSES,
  GENERATION_CANCELED_MESSAGE,
  GENERATION_ERROR_MESSAGE,
  POLL_MAX_ATTEMPTS,
  PREDICTION_FAILED_MESSAGE,
  TIMED_OUT_MESSAGE,
  type FailureCode,
  type GenerationStatus,
} from '../../../../events/generation-values';
import type { PredictionApi } from '../../../shared/replicate';
import { log } from '../../../shared/log';
import type { CreditLedger } from '../../../accounts';
import type { GenerationStore } from '../../store';
import { REFUSAL_CODES } from '../../errors';
import type { FailureBudget } from '../../failure-budget';
import { releaseKey } from '../../prediction';

export interface RecordFailureDeps {
  store: GenerationStore;
  ledger: CreditLedger;
  replicate: () => Promise<PredictionApi>;
  /** Counts a failure the model caused against the client's day (decision 038). */
  modelFailures: Pick<FailureBudget, 'count'>;
  now: () => Date;
}

/** What went wrong, as the state machine passes it: a caught error, the final prediction, or the polling limit. */
export interface FailureInput {
  generationId: string;
  /** A step's error after its retries (Step Functions' `{ Error, Cause }`). */
  error?: { Error?: string; Cause?: string };
  /** A prediction that ended failed, canceled or aborted. */
  prediction?: { status: string; error?: string };
  /** No final prediction after the polling limit. */
  timedOut?: boolean;
}

export interface Failure {
  status: GenerationStatus;
  code: FailureCode;
  /** Shown to the client. */
  message: string;
  /** For the console's steps only (Replicate's error text, an error's name). */
  detail: string;
}

const MAX_DETAIL = 500;

/** A Lambda error's message from Step Functions' Cause (`{"errorType","errorMessage",...}`). */
function messageOf(cause: string | undefined): string | undefined {
  if (!cause) return undefined;
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === 'string' && parsed.errorMessage.trim() ? parsed.errorMessage : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The failure a generation records. A refusal of ours (credits, policy, nothing deliverable)
 * keeps its own message, written for the client; any other error gets a general message, and
 * only its name goes into the steps (a message can quote data).
 */
export function failureOf(input: FailureInput): Failure {
  if (input.timedOut) return { status: 'failed', code: 'timed-out', message: TIMED_OUT_MESSAGE, detail: `no final prediction after ${POLL_MAX_ATTEMPTS} polls; canceled` };
  if (input.prediction) {
    const detail = `prediction ${input.prediction.status}${input.prediction.error ? `: ${input.prediction.error}` : ''}`.slice(0, MAX_DETAIL);
    return input.prediction.status === 'canceled'
      ? { status: 'canceled', code: 'canceled', message: GENERATION_CANCELED_MESSAGE, detail }
      : { status: 'failed', code: 'prediction-failed', message: PREDICTION_FAILED_MESSAGE, detail };
  }
  const name = input.error?.Error ?? 'Error';
  const code = REFUSAL_CODES[name];
  if (code) {
    const fallback = code === 'prediction-failed' ? PREDICTION_FAILED_MESSAGE : GENERATION_ERROR_MESSAGE;
    return { status: 'failed', code, message: messageOf(input.error?.Cause) ?? fallback, detail: name };
  }
  return { status: 'failed', code: 'error', message: GENERATION_ERROR_MESSAGE, detail: name.slice(0, 100) };
}

/**
 * Replicate's own faults, as a failed prediction's error names them: its platform's error codes
 * (https://replicate.com/docs/reference/error-codes: E1000 unknown, E1001 out of memory, E4875
 * webhook, E6716 timeout starting) and its "interrupted, please retry" wording.
 */
const PLATFORM_FAULT = /\bE(?:1000|1001|4875|6716)\b|\binterrupted\b|\bplease retry\b/i;

/**
 * Whether the client's request made the generation fail (decision 038): a prediction that ended
 * `failed` with the model's error, a safety checker's refusal included. Never our faults or the
 * provider's: a time-out, a cancel by the deadline, an aborted run, a provider 5xx or any error
 * of a step, an output we could not deliver, or a failure Replicate's platform names as its own.
 */
export function isModelCaused(input: FailureInput): boolean {
  return input.prediction?.status === 'failed' && !PLATFORM_FAULT.test(input.prediction.error ?? '');
}

/**
 * Steps RecordFailure, RecordPredictionFailure and RecordTimeout: cancels a prediction still
 * running, releases whatever the generation still holds reserved, and records the failure
 * (status failed or canceled, the code and message). A generation already final is left as it is.
 */
export async function recordFailure(deps: RecordFailureDeps, input: FailureInput): Promise<{ recorded: boolean; code: FailureCode }> {
  const { generationId } = input;
  const failure = failureOf(input);
  const generation = await deps.store.getForWorkflow(generationId);
  if (!generation) {
    log.warn('failure of a generation that does not exist', { generationId });
    return { recorded: false, code: failure.code };
  }
  if (generation.status === 'succeeded' || generation.status === 'failed' || generation.status === 'canceled') return { recorded: false, code: failure.code };

  // Counted before the failure is recorded: a retry after a failed record still counts it, once.
  const modelCaused = isModelCaused(input);
  if (modelCaused) await deps.modelFailures.count(generation.accountId, generationId, deps.now());

  if (generation.predictionId && (input.timedOut || !generation.prediction)) {
    try {
      await (await deps.replicate()).cancelPrediction(generation.predictionId);
    } catch (err) {
      log.warn('the prediction could not be canceled', { generationId, error: (err as Error)?.name });
    }
  }

  const reservation = await deps.ledger.reservation(generation.accountId, generationId);
  if (reservation && reservation.open > 0) {
    await deps.ledger.release(generation.accountId, { credits: reservation.open, key: releaseKey(generationId), generationId, reason: `Generation ${failure.code}: credits returned` });
  }
  const recorded = await deps.store.recordStep(
    generationId,
    { step: 'Failed', at: deps.now().toISOString(), detail: `${failure.code}: ${failure.detail}${modelCaused ? ' (counted toward the client\'s daily limit)' : ''}`.slice(0, 600), once: true },
    { status: failure.status, failure: { code: failure.code, message: failure.message }, creditsSpent: reservation?.committed ?? 0 },
    { notFrom: FINAL_STATUSES },
  );
  log.info('generation failed', { generationId, code: failure.code });
  return { recorded, code: failure.code };
}
