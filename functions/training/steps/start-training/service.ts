import { START_BUSY_ERROR, TRAINING_SET_URL_TTL_SECONDS } from '../../../../events/training-values';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';
import { settingsOf, type TrainerConfig } from '../../config';
import { LikenessRemoved, TrainingNotFound } from '../../errors';
import { ReplicateError, type ReplicateTraining, type ReplicateApi } from '../../../shared/replicate';
import type { TrainingRecord, TrainingStore } from '../../store';

export interface StartTrainingDeps {
  store: Pick<TrainingStore, 'getTraining' | 'getModel' | 'updateTraining' | 'markStartAttempt' | 'adoptReplicateTraining'>;
  replicate: () => Promise<Pick<ReplicateApi, 'createTraining' | 'listTrainings' | 'cancelTraining'>>;
  /** Presigns the training set's GET URL (the training bucket). */
  sets: Pick<Bucket, 'getUrl'>;
  config: TrainerConfig;
  /** `<API endpoint>/webhooks/replicate-training`: the training's id is added as `?training=`. */
  webhookUrl: string;
  now: () => Date;
}

/**
 * How long after an attempt a create it sent can still appear in Replicate's list: the client gives
 * up on a create's answer after 15 s (ATTEMPT_TIMEOUT_MS), and Replicate makes the training before it answers.
 */
const CREATE_SETTLE_MS = 30_000;
/** Replicate's clock and ours may differ a little: its list is read from this long before the attempt. */
const CLOCK_SKEW_MS = 60_000;

/** Another invocation is creating this training right now (or its create may still appear): retried by the workflow. */
class StartAttemptBusy extends Error {
  constructor() {
    super('Another attempt may be creating this training');
    this.name = START_BUSY_ERROR;
  }
}

/** The training a listed one is, when its training set is this training's zip (the URL's path ends with its key). */
function isMadeFor(listed: ReplicateTraining, zipKey: string, imagesInput: string): boolean {
  const url = listed.input[imagesInput];
  if (typeof url !== 'string') return false;
  try {
    return decodeURIComponent(new URL(url).pathname).endsWith(`/${zipKey}`);
  } catch {
    return false;
  }
}

/**
 * Step StartTraining: starts the training on Replicate with the stage's trainer version and input
 * names, the training set by a presigned GET URL valid for an hour, the talent's trigger word and
 * the steps (the console's, or the stage's), and our signed webhook (start and completed); then
 * records its id and status `training`.
 *
 * Replicate takes no idempotency key, and a training costs dollars: one training of ours makes at
 * most one on Replicate, whatever is retried (decision 038's rule). The attempt is marked on the
 * training before the create; an attempt that finds an earlier mark looks in Replicate's list for
 * what that attempt made (by its training set's URL) before creating again, and waits while a
 * create it cannot see may still appear. A webhook of the lost create records its id too.
 */
export async function startTraining(deps: StartTrainingDeps, trainingId: string): Promise<{ replicateTrainingId: string }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training) throw new TrainingNotFound(trainingId);
  // Recorded by an earlier attempt, or by the start webhook of a create whose answer was lost.
  if (training.replicateTrainingId) return adopt(deps, training, training.replicateTrainingId, 'recorded before');
  const model = await deps.store.getModel(training.talentId);
  if (!model || !training.zipKey) throw new TrainingNotFound(trainingId);
  if (model.removedAt) throw new LikenessRemoved(training.talentId);
  const api = await deps.replicate();
  const now = deps.now();

  if (training.startAttemptAt) {
    const attemptAt = Date.parse(training.startAttemptAt);
    const made = (await api.listTrainings({ createdAfter: new Date(attemptAt - CLOCK_SKEW_MS) })).find((t) => isMadeFor(t, training.zipKey!, deps.config.TRAINER_INPUTS.images));
    if (made) return adopt(deps, training, made.id, 'found in the list after a lost answer');
    if (now.getTime() - attemptAt < CREATE_SETTLE_MS) throw new StartAttemptBusy();
  }
  if (!(await deps.store.markStartAttempt(trainingId, now.toISOString(), training.startAttemptAt))) {
    const again = await deps.store.getTraining(trainingId);
    if (again?.replicateTrainingId) return adopt(deps, again, again.replicateTrainingId, 'recorded meanwhile');
    throw new StartAttemptBusy();
  }

  const settings = settingsOf(deps.config, training.steps);
  const inputs = deps.config.TRAINER_INPUTS;
  const setUrl = await deps.sets.getUrl(training.zipKey, { expiresIn: TRAINING_SET_URL_TTL_SECONDS });
  let created: ReplicateTraining;
  try {
    created = await api.createTraining({
      trainer: settings.trainer,
      trainerVersion: settings.trainerVersion,
      destination: model.replicateModel,
      input: { [inputs.images]: setUrl, [inputs.triggerWord]: model.triggerWord, [inputs.steps]: settings.steps },
      webhook: `${deps.webhookUrl}?training=${encodeURIComponent(trainingId)}`,
    });
  } catch (err) {
    // A sure answer (a refusal, a throttle that outlasted the client's retries) made nothing: the
    // next attempt may create at once. An unsure one (no answer, a 5xx) keeps the mark.
    if (err instanceof ReplicateError && !err.unsure) {
      await deps.store.updateTraining(trainingId, { startAttemptAt: undefined });
    }
    throw err;
  }
  return adopt(deps, { ...training, settings }, created.id, 'created');
}

async function adopt(deps: StartTrainingDeps, training: TrainingRecord, replicateId: string, how: string): Promise<{ replicateTrainingId: string }> {
  const at = deps.now().toISOString();
  const settings = training.settings ?? settingsOf(deps.config, training.steps);
  // `training` from `preparing` (a training that already moved on keeps its status).
  const status = training.status === 'preparing' ? 'training' : training.status;
  const ours = await deps.store.adoptReplicateTraining(training.id, replicateId, { status, settings, startAttemptAt: undefined, updatedAt: at });
  if (!ours) {
    // A webhook recorded another training as this one's: that one runs; this one must not.
    const recorded = (await deps.store.getTraining(training.id))?.replicateTrainingId;
    log.warn('a second training on Replicate for one of ours; canceling it', { trainingId: training.id, replicateTrainingId: replicateId });
    await (await deps.replicate()).cancelTraining(replicateId).catch((err: unknown) => log.error('could not cancel a second training', err, { trainingId: training.id }));
    if (!recorded) throw new Error('The training records another training on Replicate that cannot be read');
    return { replicateTrainingId: recorded };
  }
  log.info('training started on Replicate', { trainingId: training.id, replicateTrainingId: replicateId, how, steps: settings.steps });
  return { replicateTrainingId: replicateId };
}
