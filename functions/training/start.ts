// Starting a training after the first: the talent's "This isn't me" and the console's retrain
// both record the new training as the model's current one (refused while another runs), then
// start the LikenessTraining state machine for it.
import type { TrainingReason } from '../../events/training-values';
import { TRAINING_RUNNING_MESSAGE } from '../../events/training-values';
import { ConflictError } from '../shared/errors';
import { log } from '../shared/log';
import { newTrainingId, replicateModelName, triggerWordFor } from './keys';
import type { LikenessModelRecord, TrainingRecord, TrainingStore } from './store';

/** What the LikenessTraining state machine is started with: the application, and the training when it exists. */
export interface TrainingExecutionInput {
  applicationId: string;
  trainingId?: string;
}

export interface StartTrainingDeps {
  store: Pick<TrainingStore, 'addTraining' | 'createModel' | 'listTrainings' | 'updateTraining'>;
  /** StartExecution of the LikenessTraining state machine (functions/shared/workflows.ts). */
  startExecution: (name: string, input: TrainingExecutionInput) => Promise<void>;
  now: () => Date;
  newId?: () => string;
}

export interface NewTraining {
  reason: TrainingReason;
  requestedBy?: string;
  note?: string;
  steps?: number;
  /** Changes the new training makes to the model with it (the talent's rejection count). */
  modelChanges?: Partial<LikenessModelRecord>;
}

/** The execution of a training: named by it, so a start repeated for the same training starts one. */
const executionNameOf = (trainingId: string) => `likeness-${trainingId}`;

/**
 * Records a new training of the talent's model as its current one and starts its execution. The
 * model's current training must still be `model.currentTrainingId` and not running (409
 * otherwise). When the execution cannot be started, the training is marked failed (nothing runs
 * it) and the error goes to the caller.
 */
export async function startRetraining(deps: StartTrainingDeps, model: LikenessModelRecord, request: NewTraining): Promise<TrainingRecord> {
  const trainings = await deps.store.listTrainings(model.talentId);
  const training = newTraining(deps, model.talentId, model.applicationId, Math.max(0, ...trainings.map((t) => t.number)) + 1, request);
  if (!(await deps.store.addTraining(training, model.currentTrainingId, request.modelChanges))) throw new ConflictError(TRAINING_RUNNING_MESSAGE);
  await run(deps, training);
  return training;
}

/**
 * The console's first training of a talent who has no model yet (accepted before trainings
 * existed): the model and its training together, from the application the catalog names.
 */
export async function startFirstTraining(
  deps: StartTrainingDeps,
  talentId: string,
  applicationId: string,
  modelOwner: string,
  request: NewTraining,
): Promise<TrainingRecord> {
  const training = newTraining(deps, talentId, applicationId, 1, request);
  const at = training.createdAt;
  const model: LikenessModelRecord = {
    talentId,
    applicationId,
    replicateModel: `${modelOwner}/${replicateModelName(talentId)}`,
    triggerWord: triggerWordFor(talentId),
    rejections: 0,
    createdAt: at,
    updatedAt: at,
  };
  if (!(await deps.store.createModel(model, training))) throw new ConflictError(TRAINING_RUNNING_MESSAGE);
  await run(deps, training);
  return training;
}

function newTraining(deps: StartTrainingDeps, talentId: string, applicationId: string, number: number, request: NewTraining): TrainingRecord {
  const at = deps.now().toISOString();
  return {
    id: (deps.newId ?? newTrainingId)(),
    talentId,
    applicationId,
    number,
    reason: request.reason,
    status: 'preparing',
    createdAt: at,
    updatedAt: at,
    ...(request.requestedBy ? { requestedBy: request.requestedBy } : {}),
    ...(request.note ? { note: request.note } : {}),
    ...(request.steps ? { steps: request.steps } : {}),
  };
}

async function run(deps: StartTrainingDeps, training: TrainingRecord): Promise<void> {
  try {
    await deps.startExecution(executionNameOf(training.id), { applicationId: training.applicationId, trainingId: training.id });
  } catch (err) {
    // Nothing runs it: it must not stand in the way of the next one (the error is counted by startExecution).
    const at = deps.now().toISOString();
    await deps.store
      .updateTraining(training.id, { status: 'failed', failure: { code: 'error', message: 'The training workflow did not start.', at }, updatedAt: at })
      .catch((e: unknown) => log.error('could not mark a training that did not start', e, { trainingId: training.id }));
    throw err;
  }
  log.info('training started', { trainingId: training.id, number: training.number, reason: training.reason });
}
