import type { FoundingStore } from '../../store';
import { log } from '../../../shared/log';

export interface RecordEmailFailureInput {
  applicationId: string;
  kind: string;
  /** The state machine's Catch output: `{ Error, Cause }`. Only the error name is kept. */
  error?: { Error?: string; Cause?: string };
}

/**
 * After an email's retries are exhausted: marks it failed on the application (the console
 * shows `confirmationEmail: 'failed'`) and in its history. The application itself is kept and
 * the workflow carries on.
 */
export async function recordEmailFailure(store: FoundingStore, input: RecordEmailFailureInput): Promise<{ recorded: true }> {
  const errorName = (input.error?.Error ?? 'unknown error').slice(0, 100);
  await store.recordEmailFailed(input.applicationId, input.kind, errorName);
  await store.addHistory(input.applicationId, 'email failed', { note: `${input.kind}: ${errorName}` });
  log.warn('application email failed for good', { applicationId: input.applicationId, kind: input.kind, error: errorName });
  return { recorded: true };
}
