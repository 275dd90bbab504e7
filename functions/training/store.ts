// The one data access of the training wing (docs/training.md): each talent's likeness model, its
// trainings, and the acceptances that started one, in the Training table. Every change that moves
// a training on is conditional on where it stands, so a step run twice or a webhook racing a poll
// changes it once.
import {
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { TrainingFailureCode, TrainingReason, TrainingStatus } from '../../events/training-values';
import { isConditionFailure } from '../shared/errors';
import { tableItems, updateExpression, type Condition } from '../shared/store';
import { TRAININGS_BY_TALENT_INDEX, trainingKeys } from './keys';

/** A talent's likeness model. */
export interface LikenessModelRecord {
  talentId: string;
  /** The accepted application whose photos it is trained from. */
  applicationId: string;
  /** The private destination model on Replicate, `owner/name`. */
  replicateModel: string;
  triggerWord: string;
  /** The latest training. */
  currentTrainingId?: string;
  /** The training whose version clients generate with, and that version's id. */
  liveTrainingId?: string;
  liveVersion?: string;
  /** Times the talent answered "This isn't me". */
  rejections: number;
  createdAt: string;
  updatedAt: string;
  /** The versions were deleted from Replicate and the files from the bucket (removal or erasure). */
  removedAt?: string;
}

/** The settings a training ran with (stage settings, or the console's). */
interface TrainingSettings {
  trainer: string;
  trainerVersion: string;
  steps: number;
  imageSize: number;
  hardware: string;
}

export interface SampleRecord {
  index: number;
  prompt: string;
  predictionId?: string;
  /** The stored image, once made. */
  key?: string;
}

export interface TrainingRecord {
  id: string;
  talentId: string;
  applicationId: string;
  /** 1 for the acceptance's, then counting. */
  number: number;
  reason: TrainingReason;
  status: TrainingStatus;
  createdAt: string;
  updatedAt: string;
  /** The console's retrain: who asked, why, and the steps asked for. */
  requestedBy?: string;
  note?: string;
  steps?: number;
  /** What the founding application's identity check recorded when the training started (docs/identity.md). */
  identityStatus?: string;
  imageCount?: number;
  zipKey?: string;
  settings?: TrainingSettings;
  /** The training on Replicate, once created; the time of a create whose answer may be lost (decision 038's rule). */
  replicateTrainingId?: string;
  startAttemptAt?: string;
  /** The status Replicate last told (webhook or poll). */
  replicateStatus?: string;
  replicateError?: string;
  /** The execution's task token while it waits for the completed webhook. */
  taskToken?: string;
  version?: string;
  versionRef?: string;
  startedAt?: string;
  completedAt?: string;
  durationSeconds?: number;
  predictTimeSeconds?: number;
  costMicros?: number;
  logsUrl?: string;
  samples?: SampleRecord[];
  readyAt?: string;
  review?: { decision: 'approved' | 'rejected'; note?: string; at: string };
  approvedAt?: string;
  failure?: { code: TrainingFailureCode; message: string; at: string };
  /** Put back live by the console after a later version (a rollback). */
  restored?: { at: string; by: string };
  /** Its version and files were deleted (removal or erasure). */
  deletedAt?: string;
}

/** What only the table needs: its keys and the trainings-by-talent index key. */
const KEY_FIELDS = ['pk', 'sk', 'talentKey'];

/** Fields of a training to set; `undefined` removes one. */
export type TrainingFields = Partial<{ [K in keyof TrainingRecord]: TrainingRecord[K] | undefined }>;
export type ModelFields = Partial<{ [K in keyof LikenessModelRecord]: LikenessModelRecord[K] | undefined }>;

/** `#st IN (:s0, :s1, ...)`: the training's status is one of these. */
function statusIn(statuses: readonly TrainingStatus[]): Condition {
  return {
    expression: `#st IN (${statuses.map((_, i) => `:s${i}`).join(', ')})`,
    names: { '#st': 'status' },
    values: Object.fromEntries(statuses.map((st, i) => [`:s${i}`, st])),
  };
}
const NOT_FINAL_ON_REPLICATE: Condition = {
  expression: 'attribute_not_exists(replicateStatus) OR replicateStatus IN (:starting, :processing)',
  values: { ':starting': 'starting', ':processing': 'processing' },
};

export type TrainingStore = ReturnType<typeof trainingStore>;

export function trainingStore(doc: DynamoDBDocumentClient, tableName: string) {
  const { get, update, strip } = tableItems(doc, tableName, { keyFields: KEY_FIELDS });

  const trainingItem = (t: TrainingRecord) => ({ ...trainingKeys.training(t.id), ...t, talentKey: t.talentId });

  return {
    getModel: (talentId: string) => get<LikenessModelRecord>(trainingKeys.model(talentId)),
    getTraining: (trainingId: string) => get<TrainingRecord>(trainingKeys.training(trainingId)),

    /** The talent's trainings, oldest first. */
    async listTrainings(talentId: string): Promise<TrainingRecord[]> {
      const items: TrainingRecord[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: TRAININGS_BY_TALENT_INDEX,
            KeyConditionExpression: 'talentKey = :t',
            ExpressionAttributeValues: { ':t': talentId },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []).map((i) => strip<TrainingRecord>(i)));
        start = page.LastEvaluatedKey;
      } while (start);
      return items.sort((a, b) => a.number - b.number);
    },

    /**
     * The talent's model and its first training, together, when the talent has no model yet;
     * false when they have one (a repeated start, or the console came first).
     */
    async createModel(model: LikenessModelRecord, first: TrainingRecord): Promise<boolean> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: { ...trainingKeys.model(model.talentId), ...model, currentTrainingId: first.id }, ConditionExpression: 'attribute_not_exists(pk)' } },
              { Put: { TableName: tableName, Item: trainingItem(first), ConditionExpression: 'attribute_not_exists(pk)' } },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * A new training becomes the talent's current one, in one transaction: only while the model's
     * current training is still `expectedCurrent` and not running (two retrains at once start
     * one). `modelChanges` are written to the model with it (the talent's rejection count).
     */
    async addTraining(training: TrainingRecord, expectedCurrent: string | undefined, modelChanges: Partial<LikenessModelRecord> = {}): Promise<boolean> {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':new': training.id, ':at': training.createdAt };
      const changes = updateExpression({ ...modelChanges }, names, values);
      const running = [':preparing', ':training', ':sampling'];
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: trainingKeys.model(training.talentId),
                  UpdateExpression: `SET currentTrainingId = :new, updatedAt = :at${changes.startsWith('SET ') ? `, ${changes.slice(4)}` : changes ? ` ${changes}` : ''}`,
                  ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(removedAt) AND ${expectedCurrent ? 'currentTrainingId = :current' : 'attribute_not_exists(currentTrainingId)'}`,
                  ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
                  ExpressionAttributeValues: { ...values, ...(expectedCurrent ? { ':current': expectedCurrent } : {}) },
                },
              },
              ...(expectedCurrent
                ? [
                    {
                      ConditionCheck: {
                        TableName: tableName,
                        Key: trainingKeys.training(expectedCurrent),
                        ConditionExpression: `NOT (#st IN (${running.join(', ')}))`,
                        ExpressionAttributeNames: { '#st': 'status' },
                        ExpressionAttributeValues: { ':preparing': 'preparing', ':training': 'training', ':sampling': 'sampling' },
                      },
                    },
                  ]
                : []),
              { Put: { TableName: tableName, Item: trainingItem(training), ConditionExpression: 'attribute_not_exists(pk)' } },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** Sets fields of a training (undefined removes one); false when there is no such training. */
    updateTraining: (trainingId: string, fields: TrainingFields) => update(trainingKeys.training(trainingId), fields),

    /**
     * Moves a training on: sets the fields only while its status is one of `from` (a step run
     * again, or a training failed meanwhile, changes nothing); false otherwise.
     */
    moveTraining: (trainingId: string, from: readonly TrainingStatus[], fields: TrainingFields) => update(trainingKeys.training(trainingId), fields, statusIn(from)),

    updateModel: (talentId: string, fields: ModelFields) => update(trainingKeys.model(talentId), fields),

    /** Stores the execution's task token while Replicate's final status is not stored; false when it is. */
    storeTaskToken: (trainingId: string, taskToken: string) => update(trainingKeys.training(trainingId), { taskToken }, NOT_FINAL_ON_REPLICATE),

    /**
     * Marks an attempt to create the training on Replicate, while none is recorded and the last
     * attempt is still `previous` (none: undefined); false when another attempt got there first.
     */
    markStartAttempt: (trainingId: string, at: string, previous: string | undefined) =>
      update(trainingKeys.training(trainingId), { startAttemptAt: at }, {
        expression: 'attribute_not_exists(replicateTrainingId) AND (attribute_not_exists(startAttemptAt) OR startAttemptAt = :previous)',
        values: { ':previous': previous ?? '' },
      }),

    /**
     * Records the training on Replicate as this one's, when none is recorded yet: the create's
     * answer, or a signed webhook when that answer was lost. False when another id is recorded.
     */
    adoptReplicateTraining: (trainingId: string, replicateTrainingId: string, fields: TrainingFields = {}) =>
      update(trainingKeys.training(trainingId), { ...fields, replicateTrainingId }, {
        expression: 'attribute_not_exists(replicateTrainingId) OR replicateTrainingId = :rid',
        values: { ':rid': replicateTrainingId },
      }),

    /**
     * Stores what Replicate says of the training (a webhook or a poll), unless a final status is
     * stored already, and answers the task token an execution waits with (`mismatch` when the
     * training on Replicate is not this one's).
     */
    async recordReplicateStatus(
      trainingId: string,
      replicate: { id: string; status: string; error: string | null },
      at: string,
    ): Promise<{ stored: boolean; mismatch?: true; taskToken?: string }> {
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: trainingKeys.training(trainingId),
            UpdateExpression: 'SET replicateTrainingId = :rid, replicateStatus = :st, replicateError = :err, updatedAt = :at',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(replicateTrainingId) OR replicateTrainingId = :rid) AND (attribute_not_exists(replicateStatus) OR replicateStatus IN (:starting, :processing))',
            ExpressionAttributeValues: {
              ':rid': replicate.id,
              ':st': replicate.status,
              ':err': replicate.error ?? '',
              ':at': at,
              ':starting': 'starting',
              ':processing': 'processing',
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const token = out.Attributes?.taskToken;
        return { stored: true, ...(typeof token === 'string' ? { taskToken: token } : {}) };
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const now = await get<TrainingRecord>(trainingKeys.training(trainingId));
        if (now?.replicateTrainingId && now.replicateTrainingId !== replicate.id) return { stored: false, mismatch: true };
        return { stored: false };
      }
    },

    /**
     * The talent's decision on a training waiting for review, with its effect on the model, in
     * one transaction: approved puts its version live; rejected counts the rejection. False when
     * the training no longer waits for review (a second click, another tab).
     */
    async review(training: TrainingRecord, decision: { decision: 'approved' | 'rejected'; note?: string; at: string }, model: Partial<LikenessModelRecord>): Promise<boolean> {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const modelUpdate = updateExpression({ ...model, updatedAt: decision.at }, names, values);
      const approved = decision.decision === 'approved';
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: trainingKeys.training(training.id),
                  UpdateExpression: `SET #st = :st, review = :review, updatedAt = :at${approved ? ', approvedAt = :at' : ''}`,
                  ConditionExpression: '#st = :ready',
                  ExpressionAttributeNames: { '#st': 'status' },
                  ExpressionAttributeValues: { ':st': decision.decision, ':review': decision, ':at': decision.at, ':ready': 'ready-for-review' },
                },
              },
              {
                Update: {
                  TableName: tableName,
                  Key: trainingKeys.model(training.talentId),
                  UpdateExpression: modelUpdate,
                  ConditionExpression: 'currentTrainingId = :id AND attribute_not_exists(removedAt)',
                  ExpressionAttributeNames: names,
                  ExpressionAttributeValues: { ...values, ':id': training.id },
                },
              },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    // ---- Acceptances: each application starts its training once ----

    async acceptanceStarted(applicationId: string): Promise<boolean> {
      return Boolean(await get(trainingKeys.acceptance(applicationId)));
    },
    async markAcceptanceStarted(applicationId: string, at: string): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...trainingKeys.acceptance(applicationId), applicationId, startedAt: at } }));
    },

    // ---- Erasure ----

    /** Deletes the talent's model and every training record (the files and versions go first). */
    async deleteAll(talentId: string, trainingIds: string[], applicationId?: string): Promise<number> {
      const keys = [trainingKeys.model(talentId), ...trainingIds.map(trainingKeys.training), ...(applicationId ? [trainingKeys.acceptance(applicationId)] : [])];
      for (const key of keys) await doc.send(new DeleteCommand({ TableName: tableName, Key: key }));
      return keys.length;
    },
  };
}
