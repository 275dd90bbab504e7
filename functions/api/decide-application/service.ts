import {
  FOUNDING_APPLICATION_DECIDED,
  type ApplicationDecisionRecord,
  type DecisionRequest,
  type FoundingApplicationDecidedV1,
} from '../../../events/founding';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { log } from '../../shared/log';
import { ApplicationNotFoundError, type FoundingStore } from '../../stores/founding';
import { APPLICATION_ID_PATTERN } from '../../stores/founding-keys';

export interface DecideDeps {
  store: FoundingStore;
  /** Resumes the workflow's review task (Step Functions SendTaskSuccess). */
  resume: (taskToken: string, output: ApplicationDecisionRecord) => Promise<void>;
  publish: (detailType: string, detail: object) => Promise<void>;
}

export interface DecisionAnswer {
  id: string;
  status: 'accepted' | 'rejected';
  decision: ApplicationDecisionRecord;
}

/** Step Functions' answers for a token that is no longer awaited (a reminder replaced it). */
const STALE_TOKEN = new Set(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist']);

/**
 * A reviewer's decision. One conditional transaction records it against the task token the
 * application is waiting with (a second decision gets 409), then the workflow resumes with
 * that token. If the token went stale meanwhile (a reminder period ended and the wait is being
 * re-armed), the decision stays recorded: the re-armed review step finds it and resumes itself.
 */
export async function decide(
  deps: DecideDeps,
  id: string,
  request: { decision: DecisionRequest['decision']; note: string },
  reviewer: string,
): Promise<DecisionAnswer> {
  if (!APPLICATION_ID_PATTERN.test(id)) throw new NotFoundError('No application with this id.');
  const decidedAt = deps.store.now().toISOString();
  const record: ApplicationDecisionRecord = { decision: request.decision, note: request.note, decidedBy: reviewer, decidedAt };
  const status = request.decision === 'accept' ? 'accepted' : 'rejected';

  let taskToken: string | undefined;
  // The token can change under us (the wait re-armed after a reminder): a few tries with the current one.
  for (let attempt = 0; ; attempt++) {
    const current = await deps.store.getApplication(id).catch((err) => {
      throw err instanceof ApplicationNotFoundError ? new NotFoundError('No application with this id.') : err;
    });
    if (current.decision) throw new ConflictError('This application has already been decided.');
    taskToken = current.taskToken;
    if (current.status !== 'pending_review' || !taskToken) throw new ConflictError('This application is not waiting for review.');
    if (await deps.store.recordDecision(id, taskToken, record, status)) break;
    if (attempt >= 2) throw new ConflictError('This application has already been decided.');
  }

  try {
    await deps.resume(taskToken, record);
  } catch (err) {
    if (!STALE_TOKEN.has((err as Error).name)) throw err;
    log.warn('review task token stale; the re-armed review step resumes with the recorded decision', { applicationId: id });
  }

  const event: FoundingApplicationDecidedV1 = { version: 1, applicationId: id, decision: request.decision, decidedAt };
  await deps.publish(FOUNDING_APPLICATION_DECIDED, event).catch((err) => log.error('could not announce decision', err, { applicationId: id }));
  log.info('application decided', { applicationId: id, decision: request.decision });
  return { id, status, decision: record };
}
