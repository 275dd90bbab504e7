import { createHash, randomUUID } from 'node:crypto';
import {
  GENERATION_ERROR_MESSAGE,
  GENERATIONS_PER_DAY,
  GENERATIONS_PER_DAY_MESSAGE,
  GENERATIONS_PER_MINUTE,
  GENERATIONS_PER_MINUTE_MESSAGE,
} from '../../events/generation-values';
import type { GenerationStarted, StartGenerationRequest } from '../../events/generations';
import { TALENT_NOT_FOUND_MESSAGE } from '../../events/talent-values';
import { currentAccount, InsufficientCreditsError, type AccountStore, type CreditLedger } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { ConflictError, NotFoundError, UnprocessableError } from '../shared/errors';
import { KEY_REUSED, withIdempotencyKey, type Once } from '../shared/idempotency';
import { log } from '../shared/log';
import type { RateLimiter, RateRule } from '../shared/rate-limit';
import type { GenerationRecord, GenerationStore } from './store';
import { checkModelFailures, type FailureBudget } from './failure-budget';
import type { TalentStore } from '../catalog';

/** The licensee when a client has not given a full name: licenses are public, so never the email. */
export const UNNAMED_LICENSEE = 'A Humanly client';

export interface StartDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  ledger: Pick<CreditLedger, 'balance'>;
  talent: Pick<TalentStore, 'get'>;
  generations: Pick<GenerationStore, 'create' | 'recordStep' | 'get'>;
  /** The client's generations the image model failed today, and the most a day allows (decision 038). */
  modelFailures: Pick<FailureBudget, 'used'>;
  modelFailuresPerDay: number;
  limit: RateLimiter;
  once: Once;
  /** Starts the generation's workflow: execution name = the generation id, input `{generationId}`. */
  startWorkflow(generationId: string): Promise<void>;
  newId?: () => string;
  now?: () => Date;
}

/** A client's limits on starting generations (the credits limit the rest). */
function generationRules(accountId: string): RateRule[] {
  return [
    { name: 'generations.minute', subject: accountId, limit: GENERATIONS_PER_MINUTE, windowSeconds: 60, message: GENERATIONS_PER_MINUTE_MESSAGE },
    { name: 'generations.day', subject: accountId, limit: GENERATIONS_PER_DAY, windowSeconds: 24 * 60 * 60, message: GENERATIONS_PER_DAY_MESSAGE },
  ];
}

/**
 * The generation id of a client's Idempotency-Key: the same for every retry of the request, so a
 * retry whose first run stored the generation but never answered (it crashed, or its record of
 * the answer was lost) finds that generation instead of making a second one (decision 038).
 */
export function generationIdForKey(accountId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`start-generation\n${accountId}\n${idempotencyKey}`).digest('hex');
  // An RFC 9562 UUID of version 8 (an id of our own making).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Starts a generation for a client (`POST /generations` and the spec's function): refuses a
 * disabled account (403), a client over its limits (429), one whose generations the image model
 * failed too often today (429, until 00:00 UTC), a talent that is unknown or not listed (404) and
 * a balance short of the images asked for (409, the ledger's message); then stores the generation
 * (queued) and starts its workflow, which reserves the credits and makes the full policy check.
 * The same Idempotency-Key from the same client answers the same generation.
 */
export async function startGeneration(
  deps: StartDeps,
  caller: AccountCaller,
  request: StartGenerationRequest,
  idempotencyKey?: string,
): Promise<GenerationStarted> {
  const account = await currentAccount(deps.accounts, caller);
  // Keys are the client's own: another client's identical key is another request.
  const key = idempotencyKey === undefined ? undefined : `${account.id}#${idempotencyKey}`;
  return withIdempotencyKey(deps.once, 'start-generation', key, request, async () => {
    await deps.limit(generationRules(account.id));
    const at = (deps.now ?? (() => new Date()))();
    checkModelFailures(await deps.modelFailures.used(account.id, at), deps.modelFailuresPerDay, at);
    const talent = await deps.talent.get(request.talentId);
    if (!talent || talent.status !== 'active') throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
    // The workflow's reserve is the authority; this spares a run that cannot be paid for.
    const balance = await deps.ledger.balance(account.id);
    if (balance < request.count) throw new InsufficientCreditsError(request.count, balance);

    const id = idempotencyKey === undefined ? (deps.newId ?? randomUUID)() : generationIdForKey(account.id, idempotencyKey);
    const record: GenerationRecord = {
      id,
      accountId: account.id,
      clientEmail: account.email,
      licensee: account.full_name.trim() || UNNAMED_LICENSEE,
      planId: account.plan ?? 'free',
      talentId: talent.id,
      talentName: talent.name,
      prompt: request.prompt,
      style: request.style,
      count: request.count,
      status: 'queued',
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      creditsReserved: 0,
      creditsSpent: 0,
      executionName: id,
      steps: [],
      images: [],
    };
    try {
      await deps.generations.create(record);
    } catch (err) {
      if (!(err instanceof ConflictError) || idempotencyKey === undefined) throw err;
      // An earlier run of this key stored it and did not answer: the same generation, and its
      // workflow started if that run did not get so far (no step recorded yet).
      const earlier = await deps.generations.get(id);
      if (!earlier) throw err;
      if (earlier.talentId !== request.talentId || earlier.prompt !== request.prompt || earlier.style !== request.style || earlier.count !== request.count) {
        throw new UnprocessableError(KEY_REUSED);
      }
      if (earlier.status !== 'queued' || earlier.steps.length > 0) return { id, status: earlier.status };
    }
    try {
      await deps.startWorkflow(id);
    } catch (err) {
      // Nothing was reserved yet: the generation is marked failed (unless its workflow did start
      // and moved it on), so the history shows no generation queued for ever.
      log.error('generation workflow not started', err, { generationId: id });
      await deps.generations
        .recordStep(
          id,
          { step: 'start-failed', at: new Date().toISOString() },
          { status: 'failed', failure: { code: 'error', message: GENERATION_ERROR_MESSAGE } },
          { from: ['queued'] },
        )
        .catch((e: unknown) => log.error('failed generation not recorded', e, { generationId: id }));
      throw err;
    }
    return { id, status: 'queued' };
  });
}
