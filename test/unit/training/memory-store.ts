// The training store in memory, with the same conditions as the table's (functions/training/store.ts),
// for the unit and workflow tests of the training wing. Every answer is a copy, as DynamoDB's are.
import { RUNNING_TRAINING_STATUSES, type TrainingStatus } from '../../../events/training-values';
import type { LikenessModelRecord, ModelFields, TrainingFields, TrainingRecord, TrainingStore } from '../../../functions/training/store';

const copy = <T>(v: T): T => (v === undefined ? v : structuredClone(v));
const FINAL = ['succeeded', 'failed', 'canceled', 'aborted'];

function apply<T extends object>(item: T, fields: Partial<Record<string, unknown>>): void {
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) delete (item as Record<string, unknown>)[k];
    else (item as Record<string, unknown>)[k] = copy(v);
  }
}

export function memoryTrainingStore() {
  const models = new Map<string, LikenessModelRecord>();
  const trainings = new Map<string, TrainingRecord>();
  const acceptances = new Map<string, string>();
  const notFinal = (t: TrainingRecord) => t.replicateStatus === undefined || !FINAL.includes(t.replicateStatus);

  const store: TrainingStore = {
    async getModel(talentId) {
      return copy(models.get(talentId));
    },
    async getTraining(id) {
      return copy(trainings.get(id));
    },
    async listTrainings(talentId) {
      return [...trainings.values()].filter((t) => t.talentId === talentId).sort((a, b) => a.number - b.number).map(copy);
    },
    async createModel(model, first) {
      if (models.has(model.talentId) || trainings.has(first.id)) return false;
      models.set(model.talentId, copy({ ...model, currentTrainingId: first.id }));
      trainings.set(first.id, copy(first));
      return true;
    },
    async addTraining(training, expectedCurrent, modelChanges = {}) {
      const model = models.get(training.talentId);
      if (!model || model.removedAt || model.currentTrainingId !== expectedCurrent || trainings.has(training.id)) return false;
      const current = expectedCurrent ? trainings.get(expectedCurrent) : undefined;
      if (current && RUNNING_TRAINING_STATUSES.includes(current.status)) return false;
      apply(model, { ...modelChanges, currentTrainingId: training.id, updatedAt: training.createdAt });
      trainings.set(training.id, copy(training));
      return true;
    },
    async updateTraining(id, fields: TrainingFields) {
      const t = trainings.get(id);
      if (!t) return false;
      apply(t, fields);
      return true;
    },
    async moveTraining(id, from: readonly TrainingStatus[], fields) {
      const t = trainings.get(id);
      if (!t || !from.includes(t.status)) return false;
      apply(t, fields);
      return true;
    },
    async updateModel(talentId, fields: ModelFields) {
      const m = models.get(talentId);
      if (!m) return false;
      apply(m, fields);
      return true;
    },
    async storeTaskToken(id, taskToken) {
      const t = trainings.get(id);
      if (!t || !notFinal(t)) return false;
      t.taskToken = taskToken;
      return true;
    },
    async markStartAttempt(id, at, previous) {
      const t = trainings.get(id);
      if (!t || t.replicateTrainingId || (t.startAttemptAt !== undefined && t.startAttemptAt !== previous)) return false;
      t.startAttemptAt = at;
      return true;
    },
    async adoptReplicateTraining(id, replicateTrainingId, fields = {}) {
      const t = trainings.get(id);
      if (!t || (t.replicateTrainingId && t.replicateTrainingId !== replicateTrainingId)) return false;
      apply(t, { ...fields, replicateTrainingId });
      return true;
    },
    async recordReplicateStatus(id, replicate, at) {
      const t = trainings.get(id);
      if (!t || (t.replicateTrainingId && t.replicateTrainingId !== replicate.id) || !notFinal(t)) {
        return t?.replicateTrainingId && t.replicateTrainingId !== replicate.id ? { stored: false, mismatch: true } : { stored: false };
      }
      apply(t, { replicateTrainingId: replicate.id, replicateStatus: replicate.status, replicateError: replicate.error ?? '', updatedAt: at });
      return { stored: true, ...(t.taskToken ? { taskToken: t.taskToken } : {}) };
    },
    async review(training, decision, modelChanges) {
      const t = trainings.get(training.id);
      const m = models.get(training.talentId);
      if (!t || t.status !== 'ready-for-review' || !m || m.currentTrainingId !== training.id || m.removedAt) return false;
      apply(t, { status: decision.decision, review: decision, updatedAt: decision.at, ...(decision.decision === 'approved' ? { approvedAt: decision.at } : {}) });
      apply(m, { ...modelChanges, updatedAt: decision.at });
      return true;
    },
    async acceptanceStarted(applicationId) {
      return acceptances.has(applicationId);
    },
    async markAcceptanceStarted(applicationId, at) {
      acceptances.set(applicationId, at);
    },
    async deleteAll(talentId, trainingIds, applicationId) {
      models.delete(talentId);
      for (const id of trainingIds) trainings.delete(id);
      if (applicationId) acceptances.delete(applicationId);
      // As the table's: every key asked for is counted.
      return 1 + trainingIds.length + (applicationId ? 1 : 0);
    },
  };
  return { store, models, trainings, acceptances };
}
