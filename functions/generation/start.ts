import { randomUUID } from 'node:crypto';
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
import { NotFoundError } from '../shared/errors';
import { withIdempotencyKey, type Once } from '../shared/idempotency';
import { log } from '../shared/log';
import type { RateLimiter, RateRule } from '../shared/rate-limit';
import type { GenerationRecord, GenerationStore } from './store';
import type { TalentStore } from '../catalog';

/** The licensee when a client has not given a full name: licenses are public, so never the email. */
export const UNNAMED_LICENSEE = 'A Humanly client';

export interface StartDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  ledger: Pick<CreditLedger, 'balance'>;
  talent: Pick<TalentStore, 'get'>;
  generations: Pick<GenerationStore, 'create' | 'recordStep'>;
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
 * Starts a generation for a client (`POST /generations` and the spec's function): refuses a
 * disabled account (403), a client over its limits (429), a talent that is unknown or not
 * listed (404) and a balance short of the images asked for (409, the ledger's message); then
 * stores the generation (queued) and starts its workflow, which reserves the credits and makes
 * the full policy check. The same Idempotency-Key from the same client answers the same generation.
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
    const talent = await deps.talent.get(request.talentId);
    if (!talent || talent.status !== 'active') throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
    // The workflow's reserve is the authority; this spares a run that cannot be paid for.
    const balance = await deps.ledger.balance(account.id);
    if (balance < request.count) throw new InsufficientCreditsError(request.count, balance);

    const id = (deps.newId ?? randomUUID)();
    const at = (deps.now ?? (() => new Date()))().toISOString();
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
      createdAt: at,
      updatedAt: at,
      creditsReserved: 0,
      creditsSpent: 0,
      executionName: id,
      steps: [],
      images: [],
    };
    await deps.generations.create(record);
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
          { expression: '#status = :queued', names: { '#status': 'status' }, values: { ':queued': 'queued' } },
        )
        .catch((e: unknown) => log.error('failed generation not recorded', e, { generationId: id }));
      throw err;
    }
    return { id, status: 'queued' };
  });
}
