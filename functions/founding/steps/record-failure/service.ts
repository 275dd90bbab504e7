import type { RetryableStep } from '../../../../events/founding-values';
import { log } from '../../../shared/log';
import type { FoundingStore } from '../../store';

export interface RecordFailureInput {
  applicationId: string;
  step: RetryableStep;
  /** The state machine's Catch output: `{ Error, Cause }`. Only the error name is kept (the cause may carry personal data). */
  error?: { Error?: string; Cause?: string };
}

/**
 * After a step's retries are exhausted (decision 017): the application gets status `failed`, the
 * step and the error's name, and a history entry; the status it had is kept for the retry to
 * restore. The console shows it with a Retry action; the execution then ends failed.
 */
export async function recordFailure(store: FoundingStore, input: RecordFailureInput): Promise<{ recorded: true }> {
  const app = await store.getApplication(input.applicationId);
  const error = (input.error?.Error || 'unknown error').slice(0, 100);
  const at = store.now().toISOString();
  await store.recordFailure(input.applicationId, { step: input.step, error, at }, app.status === 'failed' ? app.statusBeforeFailure : app.status);
  await store.addHistory(input.applicationId, 'step failed', { note: `${input.step}: ${error}` });
  log.warn('application step failed for good', { applicationId: input.applicationId, step: input.step, error });
  return { recorded: true };
}
