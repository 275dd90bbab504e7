// The daily budget of generations the image model fails (decision 038): which failures are the
// client's (the model's or its safety checker's) and which are ours or the provider's, that
// RecordFailure counts the client's once per generation, the refusal's day boundary, and the
// stage setting's validation.
import { App } from 'aws-cdk-lib';
import { DEFAULT_MODEL_FAILURES_PER_DAY } from '../../../events/generation-values';
import { budgetDayOf, checkModelFailures, nextUtcMidnight } from '../../../functions/generation/failure-budget';
import { isModelCaused, recordFailure, type FailureInput, type RecordFailureDeps } from '../../../functions/generation/steps/record-failure/service';
import { stageConfig } from '../../../infra/lib/platform/stage-config';

const GEN = '0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f';
const lambdaError = (name: string) => ({ Error: name, Cause: JSON.stringify({ errorType: name, errorMessage: 'x' }) });

describe('which failures count against the client', () => {
  it.each<[string, FailureInput]>([
    ['the model failed with its error', { generationId: GEN, prediction: { status: 'failed', error: 'CUDA error: device-side assert triggered' } }],
    ["the model's safety checker refused the output", { generationId: GEN, prediction: { status: 'failed', error: 'NSFW content detected. Try running it again, or try a different prompt.' } }],
    ['the model failed without saying why', { generationId: GEN, prediction: { status: 'failed', error: '' } }],
  ])('counts: %s', (_what, input) => {
    expect(isModelCaused(input)).toBe(true);
  });

  it.each<[string, FailureInput]>([
    ['no final prediction after the polling limit (our time-out)', { generationId: GEN, timedOut: true }],
    ['canceled by its deadline', { generationId: GEN, prediction: { status: 'canceled', error: '' } }],
    ['aborted before it ran', { generationId: GEN, prediction: { status: 'aborted', error: '' } }],
    ["Replicate's unknown error (E1000)", { generationId: GEN, prediction: { status: 'failed', error: 'Prediction failed: unexpected error (E1000)' } }],
    ['Replicate ran out of memory (E1001)', { generationId: GEN, prediction: { status: 'failed', error: 'E1001: Model out of memory' } }],
    ['Replicate timed out starting it (E6716)', { generationId: GEN, prediction: { status: 'failed', error: 'Timeout starting prediction (E6716)' } }],
    ['Replicate interrupted it', { generationId: GEN, prediction: { status: 'failed', error: 'Prediction interrupted; please retry (code: PA)' } }],
    ['a provider 5xx on a step, after its retries', { generationId: GEN, error: lambdaError('ReplicateError') }],
    ['an error of ours', { generationId: GEN, error: lambdaError('ProvisionedThroughputExceededException') }],
    ['outputs we could not deliver', { generationId: GEN, error: lambdaError('PredictionFailed') }],
    ['a refusal by our own rules', { generationId: GEN, error: lambdaError('PolicyRefused') }],
  ])('does not count: %s', (_what, input) => {
    expect(isModelCaused(input)).toBe(false);
  });
});

describe('RecordFailure and the budget', () => {
  function world(status = 'processing') {
    const generation = { id: GEN, accountId: 'acc-1', status, predictionId: 'p1', prediction: { id: 'p1', status: 'failed', output: [], error: 'NSFW' }, steps: [] };
    const counted: Array<[string, string, string]> = [];
    const seen = new Set<string>();
    const steps: string[] = [];
    const deps: RecordFailureDeps = {
      store: {
        getForWorkflow: async () => ({ ...generation }),
        recordStep: async (_id: string, step: { detail?: string }, set: { status?: string }) => {
          steps.push(step.detail ?? '');
          if (set.status) generation.status = set.status;
          return true;
        },
      } as never,
      ledger: { reservation: async () => ({ reserved: 2, committed: 0, released: 0, open: 2 }), release: async () => ({}) } as never,
      replicate: async () => ({ cancelPrediction: async () => ({}) }) as never,
      modelFailures: {
        count: async (accountId, generationId, at) => {
          if (seen.has(generationId)) return false;
          seen.add(generationId);
          counted.push([accountId, generationId, budgetDayOf(at)]);
          return true;
        },
      },
      now: () => new Date('2026-03-10T23:59:59.000Z'),
    };
    return { deps, counted, steps };
  }

  it("counts a model failure once on the client's UTC day, and says so in the console's step", async () => {
    const w = world();
    const input = { generationId: GEN, prediction: { status: 'failed', error: 'NSFW content detected.' } };
    await recordFailure(w.deps, input);
    // A retried RecordFailure (its first answer lost) counts nothing more.
    await recordFailure(w.deps, input);
    expect(w.counted).toEqual([['acc-1', GEN, '2026-03-10']]);
    expect(w.steps).toEqual(["prediction-failed: prediction failed: NSFW content detected. (counted toward the client's daily limit)"]);
  });

  it('counts nothing for a time-out, a provider error or a cancel', async () => {
    for (const input of [
      { generationId: GEN, timedOut: true },
      { generationId: GEN, error: lambdaError('ReplicateError') },
      { generationId: GEN, prediction: { status: 'canceled', error: '' } },
    ]) {
      const w = world();
      await recordFailure(w.deps, input);
      expect(w.counted).toEqual([]);
      expect(w.steps[0]).not.toContain('daily limit');
    }
  });
});

describe('the refusal and the stage setting', () => {
  it('refuses at the limit, not below it, until the next 00:00 UTC', () => {
    const at = new Date('2026-02-28T21:30:00.000Z');
    expect(() => checkModelFailures(19, 20, at)).not.toThrow();
    expect(() => checkModelFailures(20, 20, at)).toThrow(expect.objectContaining({ status: 429, message: expect.stringContaining('at 00:00 UTC on 2026-03-01') }));
    expect(nextUtcMidnight(new Date('2026-03-01T00:00:00.000Z')).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(budgetDayOf(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
  });

  it('modelFailuresPerDay: 20 by default, a whole number of at least 1 from context, anything else refused by name', () => {
    const config = (context: Record<string, unknown>) => stageConfig(new App({ context }));
    expect(config({}).modelFailuresPerDay).toBe(DEFAULT_MODEL_FAILURES_PER_DAY);
    expect(DEFAULT_MODEL_FAILURES_PER_DAY).toBe(20);
    expect(config({ modelFailuresPerDay: '5' }).modelFailuresPerDay).toBe(5);
    for (const bad of ['0', '-1', '2.5', 'many', '']) {
      expect(() => config({ modelFailuresPerDay: bad })).toThrow(`Context modelFailuresPerDay must be a whole number of at least 1, got ${bad}`);
    }
  });
});
