import type { GenerationStarted, StartGenerationRequest } from '../../../../events/generations';
import type { AccountCaller } from '../../../shared/auth';
import { startGeneration, type StartDeps } from '../../start';

/**
 * `POST /generations` (clients) `{talentId, prompt, style, count}`, with an optional
 * Idempotency-Key: the generation queued (credits reserved, the workflow started) as
 * functions/generation/start.ts does it for both start routes.
 */
export const startMyGeneration = (deps: StartDeps, caller: AccountCaller, request: StartGenerationRequest, idempotencyKey: string | undefined): Promise<GenerationStarted> =>
  startGeneration(deps, caller, request, idempotencyKey);
