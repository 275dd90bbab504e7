import * as z from 'zod';
import { RUNNING_TRAINING_STATUSES, TRAINING_ID_PATTERN } from '../../../../events/training-values';
import type { FoundingStore } from '../../../founding';
import type { TalentStore } from '../../../catalog';
import { log } from '../../../shared/log';
import { LikenessRemoved, TalentNotCreated, TrainingNotFound } from '../../errors';
import { acceptanceTrainingId, replicateModelName, triggerWordFor } from '../../keys';
import type { LikenessModelRecord, TrainingRecord, TrainingStore } from '../../store';

/** The execution's input, as the acceptance's consumer or a retrain started it. */
export const PrepareInput = z.object({
  input: z.object({
    applicationId: z.string().min(1).max(100),
    trainingId: z.string().regex(TRAINING_ID_PATTERN).optional(),
  }),
});
export type PrepareInput = z.infer<typeof PrepareInput>;

export interface PrepareDeps {
  store: Pick<TrainingStore, 'getTraining' | 'createModel' | 'updateTraining'>;
  founding: Pick<FoundingStore, 'getApplication'>;
  talent: Pick<TalentStore, 'getForGeneration'>;
  /** The Replicate account the talent's model belongs to (stage setting). */
  modelOwner: string;
  now: () => Date;
}

/**
 * What the identity check (docs/identity.md) recorded on the application, when it is there: the
 * reviewer could not accept an application whose check stood in the way, so whatever is present
 * counts as passed; its absence does not hold the training back.
 */
function identityStatusOf(application: object): string {
  const identity = (application as { identity?: { status?: unknown; state?: unknown } }).identity;
  const status = identity?.status ?? identity?.state;
  return typeof status === 'string' && status ? status : 'not-recorded';
}

/**
 * Step PrepareTraining: the training this execution runs. A retrain's execution names it; an
 * acceptance's waits until the application has its talent (TalentNotCreated, retried with
 * backoff: the acceptance's own steps create the talent after the decision), then creates the
 * talent's model and first training once. `proceed` is false when the training is not this
 * execution's to run: it ended already, or the model was started another way first.
 */
export async function prepareTraining(deps: PrepareDeps, { input }: PrepareInput): Promise<{ trainingId: string; proceed: boolean }> {
  if (input.trainingId) {
    const training = await deps.store.getTraining(input.trainingId);
    if (!training) throw new TrainingNotFound(input.trainingId);
    if (!training.identityStatus) {
      const application = await deps.founding.getApplication(training.applicationId);
      await deps.store.updateTraining(training.id, { identityStatus: identityStatusOf(application) });
    }
    return { trainingId: training.id, proceed: RUNNING_TRAINING_STATUSES.includes(training.status) };
  }

  const application = await deps.founding.getApplication(input.applicationId);
  if (!application.talentId) throw new TalentNotCreated(input.applicationId);
  const talentId = application.talentId;
  const found = await deps.talent.getForGeneration(talentId);
  if (!found) throw new TalentNotCreated(input.applicationId);
  if (found.controls.removedAt) throw new LikenessRemoved(talentId);

  const at = deps.now().toISOString();
  const trainingId = acceptanceTrainingId(application.id);
  const model: LikenessModelRecord = {
    talentId,
    applicationId: application.id,
    replicateModel: `${deps.modelOwner}/${replicateModelName(talentId)}`,
    triggerWord: triggerWordFor(talentId),
    rejections: 0,
    createdAt: at,
    updatedAt: at,
  };
  const first: TrainingRecord = {
    id: trainingId,
    talentId,
    applicationId: application.id,
    number: 1,
    reason: 'acceptance',
    status: 'preparing',
    createdAt: at,
    updatedAt: at,
    identityStatus: identityStatusOf(application),
  };
  if (await deps.store.createModel(model, first)) {
    log.info('likeness model created', { trainingId, applicationId: application.id, identity: first.identityStatus });
    return { trainingId, proceed: true };
  }
  // Made before: by an earlier run of this step (go on with it), or by the console (leave it).
  const existing = await deps.store.getTraining(trainingId);
  return { trainingId, proceed: Boolean(existing && RUNNING_TRAINING_STATUSES.includes(existing.status)) };
}
