import {
  FOUNDING_APPLICATION_DECIDED,
  type ApplicationDecisionRecord,
  type DecisionRequest,
  type FoundingApplicationDecidedV1,
} from '../../../../events/founding';
import { ACCEPT_GATES, IDENTITY_REASON_REQUIRED, type AcceptGate } from '../../../../events/identity';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { ApplicationNotFoundError, type FoundingStore } from '../../store';
import { acceptGatesOf } from '../../identity/review';
import { APPLICATION_ID_PATTERN } from '../../keys';

export interface DecideDeps {
  store: FoundingStore;
  /** Resumes the workflow's review task (`resumeTask`): `false` when the token is spent. */
  resume: (taskToken: string, output: ApplicationDecisionRecord) => Promise<boolean>;
  publish: (detailType: string, detail: object) => Promise<void>;
  /** Pauses between attempts to resume (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

export interface DecisionAnswer {
  id: string;
  status: 'accepted' | 'rejected';
  decision: ApplicationDecisionRecord;
}

/** Pauses before the second and third attempt to resume the workflow. */
const RESUME_PAUSES_MS = [200, 1000];

export const RESUME_FAILED_MESSAGE =
  'The decision is recorded, but the review workflow could not be resumed yet. Send the same decision again to resume it.';

const sleeper = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A reviewer's decision. One conditional transaction records it against the task token the
 * application is waiting with (a second, different decision gets 409), then the workflow resumes
 * with that token. The token stays on the application until the workflow has taken the decision:
 * a resume that keeps failing answers 503 and the same decision sent again resumes with the kept
 * token (decision 017). If the token went stale meanwhile (a reminder period ended and the wait
 * is being re-armed), the re-armed review step finds the recorded decision and resumes itself.
 */
export async function decide(
  deps: DecideDeps,
  id: string,
  request: { decision: DecisionRequest['decision']; note: string; messageToApplicant?: string; identityReason?: string; secondProof?: string },
  reviewer: string,
): Promise<DecisionAnswer> {
  if (!APPLICATION_ID_PATTERN.test(id)) throw new NotFoundError('No application with this id.');
  const reason = request.identityReason?.trim() ?? '';
  const proof = request.secondProof?.trim() ?? '';
  let gates: AcceptGate[] = [];
  if (request.decision === 'accept') {
    // Past a gate of the proof of person (docs/identity.md, "Gates"), an acceptance needs a written
    // reason and a named second proof, both kept in the history.
    const app = await deps.store.getApplication(id).catch((err) => {
      throw err instanceof ApplicationNotFoundError ? new NotFoundError('No application with this id.') : err;
    });
    // Decided already (the same decision resumes, another is refused) or not waiting for review
    // (refused): answered below, with no gate to pass.
    gates = app.decision || app.status !== 'pending_review' ? [] : acceptGatesOf(app);
    const missing = gates.length ? [...(reason ? [] : ['identityReason']), ...(proof ? [] : ['secondProof'])] : [];
    if (missing.length) throw new ValidationError(IDENTITY_REASON_REQUIRED, Object.fromEntries(missing.map((field) => [field, IDENTITY_REASON_REQUIRED])));
  }
  const decidedAt = deps.store.now().toISOString();
  let record: ApplicationDecisionRecord = {
    decision: request.decision,
    note: request.note,
    ...(request.messageToApplicant ? { messageToApplicant: request.messageToApplicant } : {}),
    decidedBy: reviewer,
    decidedAt,
  };

  let taskToken: string | undefined;
  // The token can change under us (the wait re-armed after a reminder): a few tries with the current one.
  for (let attempt = 0; ; attempt++) {
    const current = await deps.store.getApplication(id).catch((err) => {
      throw err instanceof ApplicationNotFoundError ? new NotFoundError('No application with this id.') : err;
    });
    if (current.decision) {
      // Recorded by an earlier call whose resume did not get through: the same decision resumes it now.
      if (current.taskToken && current.decision.decision === request.decision) {
        taskToken = current.taskToken;
        record = current.decision;
        break;
      }
      throw new ConflictError('This application has already been decided.');
    }
    taskToken = current.taskToken;
    if (current.status !== 'pending_review' || !taskToken) throw new ConflictError('This application is not waiting for review.');
    if (await deps.store.recordDecision(id, taskToken, record, statusOf(record))) break;
    if (attempt >= 2) throw new ConflictError('This application has already been decided.');
  }

  if (record.decision === 'accept' && gates.length) {
    await deps.store.addHistory(id, 'accepted past identity gates', {
      by: reviewer,
      note: `Gates: ${gates.map((g) => `${g} (${ACCEPT_GATES[g]})`).join('; ')}. Reason: ${reason}. Second proof: ${proof}.`,
    });
  }
  await resumeWorkflow(deps, id, taskToken, record);

  const event: FoundingApplicationDecidedV1 = { version: 1, applicationId: id, decision: record.decision, decidedAt: record.decidedAt };
  await deps.publish(FOUNDING_APPLICATION_DECIDED, event).catch((err) => log.error('could not announce decision', err, { applicationId: id }));
  log.info('application decided', { applicationId: id, decision: record.decision });
  return { id, status: statusOf(record), decision: record };
}

const statusOf = (record: ApplicationDecisionRecord) => (record.decision === 'accept' ? 'accepted' : 'rejected');

/**
 * SendTaskSuccess with the kept token, a few times over transient failures; then the token is
 * removed (the workflow has it, or a re-armed wait took over). Throws 503 with the token kept.
 */
async function resumeWorkflow(deps: DecideDeps, id: string, taskToken: string, record: ApplicationDecisionRecord): Promise<void> {
  const sleep = deps.sleep ?? sleeper;
  for (let attempt = 0; ; attempt++) {
    try {
      // A spent token: no longer awaited (a reminder period ended and the wait is being re-armed).
      if (!(await deps.resume(taskToken, record))) log.warn('review task token stale; the re-armed review step resumes with the recorded decision', { applicationId: id });
      break;
    } catch (err) {
      if (attempt >= RESUME_PAUSES_MS.length) {
        log.error('could not resume the review workflow; the token is kept for the next attempt', err, { applicationId: id });
        throw new AppError(RESUME_FAILED_MESSAGE, 503);
      }
      await sleep(RESUME_PAUSES_MS[attempt]);
    }
  }
  // False when the wait has another token now: nothing to forget.
  await deps.store.clearTaskToken(id, taskToken);
}
