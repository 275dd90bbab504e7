import { FoundingApplicationDecidedV1 } from '../../../../events/founding';
import { log } from '../../../shared/log';
import type { TrainingStore } from '../../store';
import type { TrainingExecutionInput } from '../../start';

export interface StartLikenessTrainingDeps {
  store: Pick<TrainingStore, 'acceptanceStarted' | 'markAcceptanceStarted'>;
  startExecution: (name: string, input: TrainingExecutionInput) => Promise<void>;
  now: () => Date;
}

/** The execution an acceptance starts: named by the application, so a repeated start is refused by Step Functions. */
const acceptanceExecutionName = (applicationId: string) => `likeness-${applicationId}`;

const ALREADY_STARTED = 'ExecutionAlreadyExists';

/**
 * `FoundingApplication.Decided` with `accept`: starts the LikenessTraining state machine for the
 * application (its first step waits for the talent the acceptance's steps create). Once per
 * application: the start is recorded, and an event delivered again starts nothing. A rejection
 * trains nothing.
 */
export async function startLikenessTraining(deps: StartLikenessTrainingDeps, detail: unknown): Promise<{ started: boolean }> {
  const event = FoundingApplicationDecidedV1.parse(detail);
  if (event.decision !== 'accept') return { started: false };
  if (await deps.store.acceptanceStarted(event.applicationId)) {
    log.info('the training of this acceptance was started before', { applicationId: event.applicationId });
    return { started: false };
  }
  try {
    await deps.startExecution(acceptanceExecutionName(event.applicationId), { applicationId: event.applicationId });
  } catch (err) {
    // Started by a delivery that ran at the same time.
    if ((err as Error)?.name !== ALREADY_STARTED) throw err;
  }
  await deps.store.markAcceptanceStarted(event.applicationId, deps.now().toISOString());
  log.info('likeness training started for an acceptance', { applicationId: event.applicationId });
  return { started: true };
}
