// StartPrediction without AWS (decision 038): one generation makes at most one prediction,
// whatever is retried. Replicate stands in as a list of the predictions it made, whose create can
// lose its answer, never arrive, or refuse; the generation's item is kept in memory with the
// conditions DynamoDB would check.
import { ReplicateError, type ListedPrediction, type Prediction, type PredictionApi } from '../../../functions/shared/replicate';
import { CREATE_SETTLE_MS, startPrediction, type StartPredictionDeps } from '../../../functions/generation/steps/start-prediction/service';
import { predictionSeed } from '../../../functions/generation/prediction';
import type { PredictionAttempt, StoredPrediction } from '../../../functions/generation/store';

const GEN = '0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f';
const MODEL = 'humanly-preview/maya-chen';
const WEBHOOK = 'https://api.example/webhooks/replicate';

type CreateOutcome = 'answered' | 'answer-lost' | 'never-arrived' | 'refused';

/** Replicate as far as StartPrediction sees it: what it made, and how each create is answered. */
function fakeReplicate(clock: { now: number }) {
  const made: Array<ListedPrediction & { canceled?: boolean }> = [];
  const calls: string[] = [];
  const outcomes: CreateOutcome[] = [];
  let n = 0;
  const make = (args: { model?: string; input: Record<string, unknown>; webhook?: string }, createdAt = new Date(clock.now)) => {
    const p: ListedPrediction & { canceled?: boolean } = { id: `p${++n}`, status: 'starting', output: null, error: null, model: args.model ?? '', version: 'hidden', createdAt: createdAt.toISOString(), input: { ...args.input } };
    made.push(p);
    return p;
  };
  const api: PredictionApi = {
    async createPrediction(args) {
      calls.push('create');
      const outcome = outcomes.shift() ?? 'answered';
      if (outcome === 'refused') throw new ReplicateError('Replicate answered 422 to creating a prediction', 422, false);
      if (outcome === 'never-arrived') throw new ReplicateError('Replicate could not be reached (TypeError)', undefined, true, true);
      const p = make(args);
      if (outcome === 'answer-lost') throw new ReplicateError('Replicate could not be reached (TypeError)', undefined, true, true);
      return { id: p.id, status: p.status, output: null, error: null } satisfies Prediction;
    },
    async listPredictions({ createdAfter, createdBefore }) {
      calls.push('list');
      return made
        .filter((p) => Date.parse(p.createdAt) >= createdAfter.getTime() && (!createdBefore || Date.parse(p.createdAt) < createdBefore.getTime()))
        .map((p) => ({ ...p }))
        .reverse();
    },
    async cancelPrediction(id) {
      calls.push(`cancel ${id}`);
      const p = made.find((m) => m.id === id)!;
      p.canceled = true;
      return { id, status: 'canceled', output: null, error: null };
    },
    getPrediction: async () => {
      throw new Error('not used');
    },
    webhookSecret: async () => 'whsec_x',
    fetchOutput: async () => Buffer.alloc(0),
  };
  return { api, made, calls, outcomes, make };
}

/** The generation's item, with the conditions of the store's writes. */
function fakeStore(item: Record<string, unknown>) {
  const steps: string[] = [];
  const store: StartPredictionDeps['store'] = {
    getForWorkflow: async () => structuredClone(item) as never,
    recordStep: async (_id, step, set = {}, guard) => {
      if (guard && !(item.predictionId === guard.prediction && guard.from?.includes(item.status as never))) return false;
      Object.assign(item, set);
      steps.push(`${step.step}: ${step.detail}`);
      return true;
    },
    storeFinalPrediction: async (_id, p: StoredPrediction) => {
      item.prediction ??= p;
      return { mismatch: false };
    },
    markPredictionAttempt: async (_id, attempt: PredictionAttempt, previous?: PredictionAttempt) => {
      const current = item.predictionAttempt as PredictionAttempt | undefined;
      if (item.predictionId || (previous ? current?.n !== previous.n : current)) return false;
      item.predictionAttempt = attempt;
      return true;
    },
    adoptPrediction: async (_id, predictionId) => {
      if (item.predictionId && item.predictionId !== predictionId) return false;
      item.predictionId = predictionId;
      return true;
    },
  };
  return { store, steps };
}

function world() {
  const clock = { now: Date.parse('2026-03-10T12:00:00.000Z') };
  const replicate = fakeReplicate(clock);
  const item: Record<string, unknown> = { id: GEN, talentId: 'maya-chen', prompt: 'a potter at her wheel', style: 'Portrait', count: 2, status: 'queued', steps: [] };
  const { store, steps } = fakeStore(item);
  const sleeps: number[] = [];
  const deps: StartPredictionDeps = {
    store,
    talent: { getForGeneration: async () => ({ controls: { generation: { model: MODEL, triggerWord: 'MAYA' } } }) as never },
    replicate: async () => replicate.api,
    webhookUrl: WEBHOOK,
    now: () => new Date(clock.now),
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
  };
  /** Runs the step as Step Functions does: once, and again `seconds` later after a failure. */
  const run = async (retryAfterSeconds = 5) => {
    try {
      return await startPrediction(deps, GEN);
    } catch {
      clock.now += retryAfterSeconds * 1000;
      return startPrediction(deps, GEN);
    }
  };
  return { deps, replicate, item, steps, sleeps, clock, run };
}

describe('StartPrediction: one prediction per generation', () => {
  it('a create whose answer is lost, retried: the prediction it made is found in the list and recorded; none is created again', async () => {
    const w = world();
    w.replicate.outcomes.push('answer-lost');
    const { predictionId } = await w.run();
    expect(w.replicate.made).toHaveLength(1);
    expect(predictionId).toBe(w.replicate.made[0].id);
    expect(w.replicate.calls).toEqual(['create', 'list']);
    expect(w.item).toMatchObject({ predictionId, status: 'starting' });
    expect(w.steps).toEqual([`StartPrediction: prediction ${predictionId} (found after an unanswered create)`]);
    expect(w.sleeps).toEqual([]);
  });

  it("sends the generation's own seed, the same on every attempt, so two generations with one prompt are told apart", async () => {
    const w = world();
    w.replicate.outcomes.push('answer-lost');
    // Another generation's prediction of the very same prompt, made a moment before.
    w.replicate.make({ model: MODEL, input: { prompt: 'MAYA a potter at her wheel, Portrait style', num_outputs: 2, seed: predictionSeed('another-generation') }, webhook: `${WEBHOOK}?generation=another` });
    const { predictionId } = await w.run();
    const ours = w.replicate.made[1];
    expect(ours.input).toMatchObject({ prompt: 'MAYA a potter at her wheel, Portrait style', seed: predictionSeed(GEN), num_outputs: 2, aspect_ratio: '1:1', output_format: 'png' });
    expect(predictionId).toBe(ours.id);
    expect(w.replicate.made).toHaveLength(2);
  });

  it("a retry after the start webhook recorded the id takes it without listing or creating", async () => {
    const w = world();
    w.replicate.outcomes.push('answer-lost');
    w.deps.sleep = async () => undefined;
    await expect(startPrediction(w.deps, GEN)).rejects.toMatchObject({ unsure: true });
    // The signed start webhook of the prediction reaches the generation (the webhook route adopts the id).
    w.item.predictionId = w.replicate.made[0].id;
    const { predictionId } = await startPrediction(w.deps, GEN);
    expect(predictionId).toBe(w.replicate.made[0].id);
    expect(w.replicate.calls).toEqual(['create']);
    expect(w.item.status).toBe('starting');
  });

  it('a create that never arrived: the retry waits until an earlier create would show, looks again, then creates once', async () => {
    const w = world();
    w.replicate.outcomes.push('never-arrived');
    const { predictionId } = await w.run(5);
    // Retried 5 s after the attempt: it waits the rest of the settling time before believing the list.
    expect(w.sleeps).toEqual([CREATE_SETTLE_MS - 5_000]);
    expect(w.replicate.calls).toEqual(['create', 'list', 'list', 'create']);
    expect(w.replicate.made.map((p) => p.id)).toEqual([predictionId]);
    expect((w.item.predictionAttempt as PredictionAttempt).n).toBe(2);
  });

  it('a create Replicate refused outright (nothing made) is retried at once, without waiting or listing', async () => {
    const w = world();
    w.replicate.outcomes.push('refused');
    const { predictionId } = await w.run();
    expect(w.replicate.calls).toEqual(['create', 'create']);
    expect(w.sleeps).toEqual([]);
    expect(w.replicate.made.map((p) => p.id)).toEqual([predictionId]);
  });

  it('a retry while another invocation is creating makes nothing and fails to be retried later', async () => {
    const w = world();
    const { store } = w.deps;
    // The other invocation marked its attempt between this one's read and its mark.
    w.deps.store = { ...store, markPredictionAttempt: async () => false };
    await expect(startPrediction(w.deps, GEN)).rejects.toMatchObject({ name: 'PredictionAttemptBusy' });
    expect(w.replicate.calls).toEqual([]);
  });

  it('more than one prediction of the generation (left by an older run): the first is kept, the others canceled', async () => {
    const w = world();
    w.replicate.outcomes.push('answer-lost');
    w.deps.sleep = async () => undefined;
    await expect(startPrediction(w.deps, GEN)).rejects.toBeInstanceOf(ReplicateError);
    const [first] = w.replicate.made;
    w.clock.now += 1000;
    const second = w.replicate.make({ model: MODEL, input: { ...first.input }, webhook: `${WEBHOOK}?generation=${GEN}` });
    const { predictionId } = await startPrediction(w.deps, GEN);
    expect(predictionId).toBe(first.id);
    expect(w.replicate.calls).toContain(`cancel ${second.id}`);
    expect(second.canceled).toBe(true);
  });

  it('a generation with its prediction recorded starts none, however often the step runs', async () => {
    const w = world();
    const { predictionId } = await startPrediction(w.deps, GEN);
    for (let i = 0; i < 3; i++) expect(await startPrediction(w.deps, GEN)).toEqual({ predictionId });
    expect(w.replicate.calls).toEqual(['create']);
    expect(w.steps).toHaveLength(1);
  });
});
