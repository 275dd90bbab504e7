import type { ExcludableIndustry } from '../../events/founding-values';
import { industryClassifierInput, readIndustryClassifierAnswer } from '../../events/industries';
import { IndustryCheckUnavailable } from './errors';
import { isFinalStatus, type Prediction, type PredictionApi } from '../shared/replicate';

/**
 * The second industry check (decision 039): a language model on Replicate, named by the stage
 * setting `industryClassifierModel`, is given the talent's excluded industries and the prompt
 * and answers which of them the prompt is about, or none. CheckPolicy asks it only after the
 * word lists passed and only for a talent with exclusions.
 */
export interface IndustryClassifier {
  /** The excluded industry the prompt is about, or undefined; IndustryCheckUnavailable when there is no answer. */
  classify(prompt: string, excluded: readonly ExcludableIndustry[]): Promise<ExcludableIndustry | undefined>;
}

interface ReplicateClassifierOptions {
  /** 'owner/name' of the model (an official language model: run by name, no version). */
  model: string;
  /** How long the create may hold its answer until the prediction ends (`Prefer: wait`). */
  waitSeconds?: number;
  /** After this long the prediction is canceled and the check has no answer. */
  deadlineMs?: number;
  /** Pause between reads while the prediction runs past the create's wait. */
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const DEFAULTS = { waitSeconds: 10, deadlineMs: 25_000, pollMs: 500 };

/** The classifier through the Replicate client (functions/shared/replicate.ts): its retries, its errors. */
export function replicateIndustryClassifier(replicate: () => Promise<PredictionApi>, options: ReplicateClassifierOptions): IndustryClassifier {
  const { model, waitSeconds, deadlineMs, pollMs } = { ...DEFAULTS, ...options };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;

  /** The prediction once it has ended; IndustryCheckUnavailable when it cannot be had in time. */
  const run = async (input: Record<string, unknown>): Promise<Prediction> => {
    const started = now();
    try {
      const api = await replicate();
      let prediction = await api.createPrediction({ model, input, waitSeconds });
      while (!isFinalStatus(prediction.status)) {
        if (now() - started >= deadlineMs) {
          await api.cancelPrediction(prediction.id).catch(() => undefined);
          throw new IndustryCheckUnavailable(`the classifier's prediction had not ended after ${deadlineMs} ms; canceled`);
        }
        await sleep(pollMs);
        prediction = await api.getPrediction(prediction.id);
      }
      return prediction;
    } catch (err) {
      if (err instanceof IndustryCheckUnavailable) throw err;
      throw new IndustryCheckUnavailable(`the classifier could not be asked: ${(err as Error)?.message ?? String(err)}`);
    }
  };

  return {
    async classify(prompt, excluded) {
      const prediction = await run(industryClassifierInput(prompt, excluded));
      if (prediction.status !== 'succeeded') {
        throw new IndustryCheckUnavailable(`the classifier's prediction ended ${prediction.status}${prediction.error ? `: ${prediction.error.slice(0, 200)}` : ''}`);
      }
      const answer = readIndustryClassifierAnswer(prediction.output, excluded);
      if (!answer.readable) throw new IndustryCheckUnavailable('the classifier answered neither an industry nor none');
      return answer.industry;
    },
  };
}
