import { ASPECT_RATIO, PREDICTION_DEADLINE_SECONDS, TALENT_NOT_CONFIGURED_MESSAGE, styledPrompt } from '../../../../events/generation-values';
import { type ListedPrediction, type Prediction, type PredictionApi, ReplicateError, versionIdOf } from '../../../shared/replicate';
import type { GenerationStore, PredictionAttempt } from '../../store';
import type { TalentStore } from '../../../catalog';
import { log } from '../../../shared/log';
import { PolicyRefused } from '../../errors';
import { generationOf, isFinalPrediction, predictionSeed, storedPrediction } from '../../prediction';

export interface StartPredictionDeps {
  store: Pick<GenerationStore, 'getForWorkflow' | 'recordStep' | 'storeFinalPrediction' | 'markPredictionAttempt' | 'adoptPrediction'>;
  talent: Pick<TalentStore, 'getForGeneration'>;
  replicate: () => Promise<PredictionApi>;
  /** `<API endpoint>/webhooks/replicate`: the generation's id is added as `?generation=`. */
  webhookUrl: string;
  now: () => Date;
  /** Waits (the settling time of an unsure create); tests pass one that moves their clock. */
  sleep: (ms: number) => Promise<void>;
}

/**
 * How long after an attempt a create it sent can still appear: the client gives up on an answer
 * after 15 s (ATTEMPT_TIMEOUT_MS in replicate.ts), Replicate makes the prediction before it
 * answers. Past this, a create not in Replicate's list was not made.
 */
export const CREATE_SETTLE_MS = 20_000;
/** Replicate's clock and ours may differ a little: the list is read from this long before the attempt. */
const CLOCK_SKEW_MS = 60_000;
/** ... and up to this long after it (a create is made within seconds of being sent). */
const CREATE_WINDOW_MS = 2 * 60_000;

/** The create the generation sends, the same on every attempt (the seed is the generation's). */
function predictionRequest(
  generation: { id: string; prompt: string; style: Parameters<typeof styledPrompt>[1]; count: number },
  config: { model?: string; version?: string; triggerWord: string },
  webhookUrl: string,
) {
  return {
    model: config.model || undefined,
    version: config.model ? undefined : config.version,
    input: {
      prompt: `${config.triggerWord} ${styledPrompt(generation.prompt, generation.style)}`,
      num_outputs: generation.count,
      aspect_ratio: ASPECT_RATIO,
      output_format: 'png',
      seed: predictionSeed(generation.id),
    },
    webhook: `${webhookUrl}?generation=${encodeURIComponent(generation.id)}`,
    webhookEventsFilter: ['start', 'completed'] as Array<'start' | 'completed'>,
    cancelAfterSeconds: PREDICTION_DEADLINE_SECONDS,
  };
}
type PredictionRequest = ReturnType<typeof predictionRequest>;

/** Whether a listed prediction is the one this request made: model, prompt and seed, and the webhook when the list gives it. */
function isMadeBy(p: ListedPrediction, request: PredictionRequest): boolean {
  if (request.model ? p.model !== request.model : versionIdOf(p.version) !== versionIdOf(request.version)) return false;
  if (p.input.prompt !== request.input.prompt || p.input.seed !== request.input.seed) return false;
  return p.webhook === undefined || p.webhook === request.webhook;
}

/** A prediction as far as it is known: its id at least (a recorded id), the rest when Replicate answered it. */
type KnownPrediction = { id: string } & Partial<Pick<Prediction, 'status' | 'output' | 'error'>>;

/** A StartPrediction that found another invocation creating the prediction at this moment: retried by the workflow. */
class PredictionAttemptBusy extends Error {
  constructor() {
    super('Another attempt is creating this prediction');
    this.name = 'PredictionAttemptBusy';
  }
}

/**
 * Step StartPrediction: creates the prediction with the talent's model (or version) and trigger
 * word, our webhook (start and completed events) and a deadline after which Replicate cancels
 * it, then records its id and status `starting`.
 *
 * One generation makes at most one prediction, whatever is retried (decision 038): Replicate's
 * create takes no idempotency key, so an attempt is marked on the generation (a conditional
 * write) before the create is sent, and a retry that finds a mark but no prediction id looks
 * for the prediction that attempt may have made (recorded meanwhile by its signed start webhook,
 * or in Replicate's list by model, prompt and the generation's seed) before it ever creates
 * another; it creates again only once the earlier create has had time to appear and did not.
 */
export async function startPrediction(deps: StartPredictionDeps, generationId: string): Promise<{ predictionId: string }> {
  const generation = await generationOf(deps.store, generationId);
  if (generation.predictionId) return settle(deps, generationId, { id: generation.predictionId }, generation.status === 'queued');
  const config = (await deps.talent.getForGeneration(generation.talentId))?.controls.generation;
  if (!config) throw new PolicyRefused(TALENT_NOT_CONFIGURED_MESSAGE);
  const request = predictionRequest(generation, config, deps.webhookUrl);
  const replicate = await deps.replicate();

  const previous = generation.predictionAttempt;
  if (previous && !previous.notMade) {
    const found = await findMade(deps, replicate, generationId, request, previous);
    if (found) return settle(deps, generationId, found, true, 'found after an unanswered create');
  }

  const attempt: PredictionAttempt = { at: deps.now().toISOString(), n: (previous?.n ?? 0) + 1 };
  if (!(await deps.store.markPredictionAttempt(generationId, attempt, previous))) {
    const now = await generationOf(deps.store, generationId);
    if (now.predictionId) return settle(deps, generationId, { id: now.predictionId }, now.status === 'queued');
    throw new PredictionAttemptBusy();
  }
  let prediction: Prediction;
  try {
    prediction = await replicate.createPrediction(request);
  } catch (err) {
    // A clear refusal made nothing: the retry may create at once. An unsure one keeps the mark.
    if (!(err instanceof ReplicateError && err.unsure)) {
      await deps.store.markPredictionAttempt(generationId, { ...attempt, notMade: true }, attempt).catch(() => undefined);
    }
    throw err;
  }
  return settle(deps, generationId, prediction, true);
}

/**
 * The prediction an earlier attempt made, if it made one: the id its start webhook recorded, or
 * the one Replicate lists for this request. While the attempt is younger than CREATE_SETTLE_MS
 * and nothing is found, waits for it to settle and looks once more. Extra predictions (none are
 * made since this step marks its attempts, but one left by an older run would bill) are canceled.
 */
async function findMade(
  deps: StartPredictionDeps,
  replicate: PredictionApi,
  generationId: string,
  request: PredictionRequest,
  attempt: PredictionAttempt,
): Promise<KnownPrediction | undefined> {
  const at = Date.parse(attempt.at);
  const look = async (): Promise<KnownPrediction[]> => {
    const recorded = (await generationOf(deps.store, generationId)).predictionId;
    if (recorded) return [{ id: recorded }];
    const listed = await replicate.listPredictions({ createdAfter: new Date(at - CLOCK_SKEW_MS), createdBefore: new Date(at + CREATE_WINDOW_MS) });
    return listed.filter((p) => isMadeBy(p, request)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  };
  let made = await look();
  const age = deps.now().getTime() - at;
  if (made.length === 0 && age < CREATE_SETTLE_MS) {
    await deps.sleep(CREATE_SETTLE_MS - age);
    made = await look();
  }
  const [first, ...extra] = made;
  for (const p of extra) {
    log.warn('a second prediction of one generation; canceling it', { generationId, predictionId: p.id });
    await replicate.cancelPrediction(p.id).catch((err: unknown) => log.warn('the extra prediction could not be canceled', { generationId, error: (err as Error)?.name }));
  }
  if (first) log.info('the prediction of an unanswered create was found', { generationId, predictionId: first.id });
  return first;
}

/** Records the prediction as the generation's (status `starting`), and its final state when it came final at once. */
async function settle(
  deps: StartPredictionDeps,
  generationId: string,
  prediction: KnownPrediction,
  record: boolean,
  how?: string,
): Promise<{ predictionId: string }> {
  if (!record) return { predictionId: prediction.id };
  const at = deps.now().toISOString();
  // The start webhook may have recorded the id already; a mismatch means another prediction is the generation's.
  if (!(await deps.store.adoptPrediction(generationId, prediction.id, at))) {
    throw new Error('The generation records another prediction');
  }
  await deps.store.recordStep(
    generationId,
    { step: 'StartPrediction', at, detail: `prediction ${prediction.id}${how ? ` (${how})` : ''}`, once: true },
    { status: 'starting' },
    // A start or processing webhook moves on from queued; never back.
    { from: ['queued'], prediction: prediction.id },
  );
  // A prediction can answer final at once (a model that refuses the input).
  if (prediction.status && isFinalPrediction(prediction.status)) {
    await deps.store.storeFinalPrediction(generationId, storedPrediction({ output: null, error: null, ...prediction, status: prediction.status }), at);
  }
  return { predictionId: prediction.id };
}
