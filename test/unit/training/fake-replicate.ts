// A Replicate of the training wing's calls (functions/shared/replicate.ts `ReplicateApi`) in memory,
// for the unit and workflow tests: models, trainings that the test finishes, predictions of
// samples that succeed at once, and the webhook signing secret. Every call is recorded.
import sharp from 'sharp';
import type { Prediction, ReplicateApi, ReplicateTraining } from '../../../functions/shared/replicate';

/** The calls the training wing makes. */
type TrainingApi = Pick<
  ReplicateApi,
  'createModel' | 'createTraining' | 'getTraining' | 'cancelTraining' | 'listTrainings' | 'deleteVersion' | 'createPrediction' | 'getPrediction' | 'webhookSecret' | 'fetchOutput'
>;

type Status = ReplicateTraining['status'];

export interface FakeTraining {
  id: string;
  trainer: string;
  trainerVersion: string;
  destination: string;
  input: Record<string, unknown>;
  webhook: string;
  status: Status;
  version?: string;
  error: string | null;
  predictTimeSeconds?: number;
  startedAt?: string;
  completedAt?: string;
}

export const WEBHOOK_SECRET = `whsec_${Buffer.from('likeness-training-tests-secret!!').toString('base64')}`;

export function fakeReplicate() {
  const models = new Map<string, { hardware: string; versions: string[]; deleted: string[] }>();
  const trainings = new Map<string, FakeTraining>();
  const predictions = new Map<string, Prediction & { version: string; input: Record<string, unknown> }>();
  const calls: string[] = [];
  let n = 0;
  let sample: Buffer | undefined;
  /** Predictions whose answer is not final the first time they are read. */
  let slowPredictions = false;

  const view = (t: FakeTraining): ReplicateTraining => ({
    id: t.id,
    status: t.status,
    ...(t.version ? { version: `${t.destination}:${t.version}` } : {}),
    error: t.error,
    input: { ...t.input },
    ...(t.predictTimeSeconds !== undefined ? { predictTimeSeconds: t.predictTimeSeconds } : {}),
    ...(t.startedAt ? { startedAt: t.startedAt } : {}),
    ...(t.completedAt ? { completedAt: t.completedAt } : {}),
    webUrl: `https://replicate.com/p/${t.id}`,
  });
  const reads = new Map<string, number>();

  const api: TrainingApi = {
    async createModel({ owner, name, hardware }) {
      calls.push(`createModel ${owner}/${name}`);
      if (models.has(`${owner}/${name}`)) return 'exists';
      models.set(`${owner}/${name}`, { hardware, versions: [], deleted: [] });
      return 'created';
    },
    async createTraining({ trainer, trainerVersion, destination, input, webhook }) {
      calls.push(`createTraining ${destination}`);
      if (!models.has(destination)) throw Object.assign(new Error('The specified training destination does not exist'), { name: 'ReplicateError', status: 404 });
      const t: FakeTraining = { id: `rt${++n}`, trainer, trainerVersion, destination, input, webhook, status: 'starting', error: null };
      trainings.set(t.id, t);
      return view(t);
    },
    async getTraining(id) {
      calls.push(`getTraining ${id}`);
      const t = trainings.get(id);
      if (!t) throw Object.assign(new Error('not found'), { name: 'ReplicateError', status: 404 });
      return view(t);
    },
    async cancelTraining(id) {
      calls.push(`cancelTraining ${id}`);
      const t = trainings.get(id);
      if (t && !['succeeded', 'failed', 'canceled'].includes(t.status)) t.status = 'canceled';
    },
    async listTrainings() {
      calls.push('listTrainings');
      return [...trainings.values()].reverse().map(view);
    },
    async deleteVersion(model, versionId) {
      calls.push(`deleteVersion ${model}:${versionId}`);
      const m = models.get(model);
      if (!m || !m.versions.includes(versionId) || m.deleted.includes(versionId)) return 'gone';
      m.deleted.push(versionId);
      return 'deleted';
    },
    async createPrediction({ version, input }) {
      calls.push(`createPrediction ${version}`);
      const id = `rp${++n}`;
      const p = { id, status: 'starting' as const, output: null, error: null, version: version ?? '', input };
      predictions.set(id, p);
      return { id, status: p.status, output: null, error: null };
    },
    async getPrediction(id) {
      if (!predictions.has(id)) throw Object.assign(new Error('not found'), { name: 'ReplicateError', status: 404 });
      const read = (reads.get(id) ?? 0) + 1;
      reads.set(id, read);
      if (slowPredictions && read < 2) return { id, status: 'processing', output: null, error: null };
      return { id, status: 'succeeded', output: `https://replicate.delivery/fake/${id}.png`, error: null };
    },
    async webhookSecret() {
      return WEBHOOK_SECRET;
    },
    async fetchOutput(url) {
      calls.push(`fetchOutput ${url}`);
      sample ??= await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 120, b: 90 } } }).png().toBuffer();
      return sample;
    },
  };

  /** Ends a training as Replicate would: a succeeded one adds a version to its destination. */
  function finish(id: string, status: 'succeeded' | 'failed' | 'canceled', options: { error?: string; predictTimeSeconds?: number } = {}): FakeTraining {
    const t = trainings.get(id)!;
    t.status = status;
    t.error = options.error ?? null;
    t.startedAt = '2026-11-27T10:00:00.000Z';
    t.completedAt = '2026-11-27T10:02:05.000Z';
    t.predictTimeSeconds = options.predictTimeSeconds ?? 121.4;
    if (status === 'succeeded') {
      t.version = (++n).toString(16).padStart(64, 'a');
      models.get(t.destination)!.versions.push(t.version);
    }
    return t;
  }

  return {
    api,
    models,
    trainings,
    predictions,
    calls,
    finish,
    /** Sample predictions answer `processing` to their first read. */
    slow: () => void (slowPredictions = true),
  };
}
