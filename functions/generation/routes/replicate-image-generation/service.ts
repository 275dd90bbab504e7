import { DEFAULT_IMAGES } from '../../../../events/generation-values';
import { LegacyPollRequest, LegacyStart, type LegacyPoll } from '../../../../events/generations';
import { currentAccount } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { legacyPollView, ownGeneration, parseLegacyPrompt, type ImageSigner } from '../../views';
import { validationErrorFrom } from '../../../shared/http';
import type { GenerationStore } from '../../store';
import { startGeneration, type StartDeps } from '../../start';

export interface LegacyDeps {
  start: StartDeps;
  generations: Pick<GenerationStore, 'get'>;
  signer: Pick<ImageSigner, 'view'>;
}

/**
 * The spec's `replicate-image-generation` function, so a client written against the original
 * calls keeps working. A body with `predictionId` polls (the id the start answered); any other
 * body starts: `{prompt: '<prompt>, <style> style', aspectRatio: '1:1', talentId, count?}`,
 * answered `{id}`, through the same start as `POST /generations`.
 */
export async function replicateImageGeneration(
  deps: LegacyDeps,
  caller: AccountCaller,
  body: Record<string, unknown>,
  idempotencyKey?: string,
): Promise<{ id: string } | LegacyPoll> {
  if ('predictionId' in body) {
    const poll = LegacyPollRequest.safeParse(body);
    if (!poll.success) throw validationErrorFrom(poll.error);
    const account = await currentAccount(deps.start.accounts, caller);
    return legacyPollView(await ownGeneration(deps.generations, account.id, poll.data.predictionId), deps.signer);
  }
  const start = LegacyStart.safeParse(body);
  if (!start.success) throw validationErrorFrom(start.error);
  const { prompt, style } = parseLegacyPrompt(start.data.prompt);
  const started = await startGeneration(
    deps.start,
    caller,
    { talentId: start.data.talentId, prompt, style, count: start.data.count ?? DEFAULT_IMAGES },
    idempotencyKey,
  );
  return { id: started.id };
}
