// Starting a generation (functions/generation/routes/start-generation, shared by POST /generations and the
// spec's function): what is refused before anything is stored, what is stored, and that an
// Idempotency-Key makes a retry the same generation. Stores are in memory; the rate limiter and
// idempotency utility are the real ones over memory.
import type { StartGenerationRequest } from '../../../events/generations';
import type { Talent } from '../../../events/talent';
import { replicateImageGeneration } from '../../../functions/generation/routes/replicate-image-generation/service';
import { generationIdForKey, startGeneration, UNNAMED_LICENSEE, type StartDeps } from '../../../functions/generation/start';
import { ConflictError } from '../../../functions/shared/errors';
import { DEFAULT_MODEL_FAILURES_PER_DAY, GENERATION_ID_PATTERN, modelFailuresMessage } from '../../../events/generation-values';
import { downloadLicense } from '../../../functions/generation/license-download';
import { listGenerationsAdmin } from '../../../functions/generation/routes/list-generations-admin/service';
import type { AccountCaller } from '../../../functions/shared/auth';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { inMemoryRateLimiter } from '../../../functions/shared/rate-limit';
import type { Account } from '../../../functions/accounts/store';
import type { GenerationRecord, LicenseRecord } from '../../../functions/generation/store';
import { talentFactory } from '../../support/talent';

const caller: AccountCaller = { sub: 'acc-1', email: 'ada@people.example', role: 'client', emailVerified: true };
const account = (over: Partial<Account> = {}): Account => ({
  id: 'acc-1',
  email: 'ada@people.example',
  full_name: 'Ada Lovelace',
  role: 'client',
  plan: 'starter',
  disabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const request: StartGenerationRequest = { talentId: 'maya-chen', prompt: 'a potter at her wheel', style: 'Portrait', count: 4 };

function world(opts: { account?: Partial<Account>; balance?: number; talent?: Partial<Talent> | null; modelFailures?: number; now?: string } = {}) {
  const accounts = new Map<string, Account>([['acc-1', account(opts.account)], ['acc-2', account({ id: 'acc-2', email: 'b@people.example' })]]);
  const stored: GenerationRecord[] = [];
  const started: string[] = [];
  const steps: Array<{ id: string; step: string; set: Record<string, unknown>; condition?: unknown }> = [];
  let n = 0;
  const talent = opts.talent === null ? undefined : (talentFactory({ id: 'maya-chen', name: 'Maya Chen', ...opts.talent }) as Talent);
  const deps: StartDeps = {
    accounts: {
      get: async (id) => accounts.get(id),
      create: async () => {
        throw new Error('not in these tests');
      },
    },
    ledger: { balance: async () => opts.balance ?? 10 },
    talent: { get: async (id) => (talent && id === talent.id ? talent : undefined) },
    generations: {
      create: async (r) => {
        if (stored.some((g) => g.id === r.id)) throw new ConflictError('This generation exists already.');
        stored.push(r);
      },
      get: async (id) => stored.find((g) => g.id === id),
      recordStep: async (id, step, set = {}, condition) => (steps.push({ id, step: step.step, set, condition }), true),
    },
    modelFailures: { used: async (accountId) => (accountId === 'acc-1' ? (opts.modelFailures ?? 0) : 0) },
    modelFailuresPerDay: DEFAULT_MODEL_FAILURES_PER_DAY,
    limit: inMemoryRateLimiter(() => new Date(opts.now ?? '2026-03-01T10:00:00Z')),
    once: inMemoryIdempotency(),
    startWorkflow: async (id) => void started.push(id),
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    now: () => new Date(opts.now ?? '2026-03-01T10:00:00Z'),
  };
  return { deps, stored, started, steps };
}

describe('startGeneration', () => {
  it('stores a queued generation named for the licensee and starts its workflow under the same id', async () => {
    const { deps, stored, started } = world();
    const answer = await startGeneration(deps, caller, request);
    expect(answer).toEqual({ id: '00000000-0000-4000-8000-000000000001', status: 'queued' });
    expect(stored).toEqual([
      {
        id: answer.id,
        accountId: 'acc-1',
        clientEmail: 'ada@people.example',
        licensee: 'Ada Lovelace',
        planId: 'starter',
        talentId: 'maya-chen',
        talentName: 'Maya Chen',
        prompt: 'a potter at her wheel',
        style: 'Portrait',
        count: 4,
        status: 'queued',
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
        creditsReserved: 0,
        creditsSpent: 0,
        executionName: answer.id,
        steps: [],
        images: [],
      },
    ]);
    expect(started).toEqual([answer.id]);
  });

  it('never makes the email public: a client without a name is licensed under a neutral name', async () => {
    const { deps, stored } = world({ account: { full_name: '  ' } });
    await startGeneration(deps, caller, request);
    expect(stored[0].licensee).toBe(UNNAMED_LICENSEE);
  });

  it.each([
    ['an unknown talent', { talent: null }, 404, 'Model not found'],
    ['a hidden talent', { talent: { status: 'hidden' as const } }, 404, 'Model not found'],
    ['a short balance', { balance: 3 }, 409, 'Not enough credits: this needs 4 and your balance is 3.'],
    ['a disabled account', { account: { disabled: true } }, 403, 'This account is disabled. Contact support.'],
  ])('refuses %s before storing or starting anything', async (_name, opts, status, message) => {
    const { deps, stored, started } = world(opts);
    await expect(startGeneration(deps, caller, request)).rejects.toMatchObject({ status, message });
    expect(stored).toEqual([]);
    expect(started).toEqual([]);
  });

  it('allows 10 starts a minute per client, then 429 naming the limit; another client is not affected', async () => {
    const { deps, started } = world({ balance: 100 });
    for (let i = 0; i < 10; i++) await startGeneration(deps, caller, request);
    await expect(startGeneration(deps, caller, request)).rejects.toMatchObject({ status: 429, message: expect.stringContaining('10 generations in the last minute') });
    await expect(startGeneration(deps, { ...caller, sub: 'acc-2' }, request)).resolves.toMatchObject({ status: 'queued' });
    expect(started).toHaveLength(11);
  });

  it('marks the generation failed (nothing was reserved) when its workflow cannot be started, and answers the error', async () => {
    const { deps, stored, steps } = world();
    deps.startWorkflow = async () => {
      throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
    };
    await expect(startGeneration(deps, caller, request)).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(steps).toEqual([
      {
        id: stored[0].id,
        step: 'start-failed',
        set: { status: 'failed', failure: { code: 'error', message: expect.stringContaining('Your credits were returned') } },
        condition: { from: ['queued'] },
      },
    ]);
  });

  it('refuses a client whose generations the model failed 20 times today, saying why and until 00:00 UTC of which day', async () => {
    const late = world({ modelFailures: 20, now: '2026-03-01T23:59:30Z' });
    const refusal = await startGeneration(late.deps, caller, request).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ status: 429, message: modelFailuresMessage(20, new Date('2026-03-02T00:00:00Z')) });
    expect((refusal as Error).message).toBe(
      '20 of your generations failed today because the image model or its safety checks refused them, the daily limit. You can start new generations again at 00:00 UTC on 2026-03-02.',
    );
    expect(late.stored).toEqual([]);
    expect(late.started).toEqual([]);
    // 19 leaves room for one more; another client's day is its own.
    await expect(startGeneration(world({ modelFailures: 19 }).deps, caller, request)).resolves.toMatchObject({ status: 'queued' });
    await expect(startGeneration(late.deps, { ...caller, sub: 'acc-2' }, request)).resolves.toMatchObject({ status: 'queued' });
    // The last day of a month and of a year turn over to the next.
    const newYear = await startGeneration(world({ modelFailures: 25, now: '2026-12-31T08:00:00Z' }).deps, caller, request).catch((e: Error) => e.message);
    expect(newYear).toContain('00:00 UTC on 2027-01-01');
  });

  it('a retry with the key after a run that stored the generation but never answered is that generation, not a second one', async () => {
    const id = generationIdForKey('acc-1', 'key-lost');
    expect(id).toMatch(GENERATION_ID_PATTERN);
    expect(generationIdForKey('acc-2', 'key-lost')).not.toBe(id);
    // The first run stores the generation and dies before it keeps its answer (its idempotency
    // record expires with it), so the retry runs again over the stored generation.
    const first = world();
    await startGeneration(first.deps, caller, request, 'key-lost');
    expect(first.stored.map((g) => g.id)).toEqual([id]);

    const retry = world();
    retry.stored.push({ ...first.stored[0] });
    expect(await startGeneration(retry.deps, caller, request, 'key-lost')).toEqual({ id, status: 'queued' });
    expect(retry.stored).toHaveLength(1);
    // Still queued with no step: its workflow is started (Step Functions answers the same name and input as the running one).
    expect(retry.started).toEqual([id]);

    // Once its workflow has moved it on, a retry answers it as it is and starts nothing.
    const later = world();
    later.stored.push({ ...first.stored[0], status: 'processing', steps: [{ step: 'ReserveCredits', at: '2026-03-01T10:00:01.000Z' }] });
    expect(await startGeneration(later.deps, caller, request, 'key-lost')).toEqual({ id, status: 'processing' });
    expect(later.started).toEqual([]);
    // Another request under that key is refused.
    await expect(startGeneration(later.deps, caller, { ...request, prompt: 'another' }, 'key-lost')).rejects.toMatchObject({ status: 422 });
    expect(later.stored).toHaveLength(1);
  });

  it("answers a repeated Idempotency-Key with the first generation; the key is the client's own", async () => {
    const { deps, stored, started } = world();
    const first = await startGeneration(deps, caller, request, 'key-1');
    expect(await startGeneration(deps, caller, request, 'key-1')).toEqual(first);
    expect(stored).toHaveLength(1);
    // The same key with another request is refused; from another client it is another generation.
    await expect(startGeneration(deps, caller, { ...request, count: 2 }, 'key-1')).rejects.toMatchObject({ status: 422 });
    const other = await startGeneration(deps, { ...caller, sub: 'acc-2' }, request, 'key-1');
    expect(other.id).not.toBe(first.id);
    expect(started).toEqual([first.id, other.id]);
  });
});

describe("the spec's function", () => {
  it('starts with the style read from the prompt and 4 images by default, and polls only its own generations', async () => {
    const { deps, stored } = world();
    const generations = { get: async (id: string) => stored.find((r) => r.id === id) };
    const signer = { view: async (key: string) => `https://signed.example/${key}` };
    const legacy = { start: deps, generations, signer };
    const answer = await replicateImageGeneration(legacy, caller, { prompt: 'a potter at her wheel, Editorial style', aspectRatio: '1:1', talentId: 'maya-chen' });
    expect(answer).toEqual({ id: stored[0].id });
    expect(stored[0]).toMatchObject({ prompt: 'a potter at her wheel', style: 'Editorial', count: 4 });

    expect(await replicateImageGeneration(legacy, caller, { predictionId: stored[0].id })).toEqual({ status: 'queued', output: null });
    await expect(replicateImageGeneration(legacy, { ...caller, sub: 'acc-2' }, { predictionId: stored[0].id })).rejects.toMatchObject({ status: 404 });
    // Bad bodies name what is wrong.
    await expect(replicateImageGeneration(legacy, caller, { prompt: 'x', aspectRatio: '16:9', talentId: 'maya-chen' })).rejects.toMatchObject({
      status: 400,
      fields: { aspectRatio: 'aspectRatio must be 1:1' },
    });
    await expect(replicateImageGeneration(legacy, caller, { predictionId: '' })).rejects.toMatchObject({ status: 400, fields: { predictionId: expect.any(String) } });
  });
});

describe('downloads and the console list', () => {
  const license = (accountId: string): LicenseRecord => ({
    id: 'lic_AAAAAAAAAAAAAAAAAAAAAA',
    generationId: 'g',
    index: 0,
    key: 'generations/acc-1/g/lic_AAAAAAAAAAAAAAAAAAAAAA.png',
    talentId: 'maya-chen',
    talentName: 'Maya Chen',
    accountId,
    licensee: 'Ada',
    style: 'Portrait',
    scope: 'commercial',
    issuedAt: '2026-03-01T10:00:00.000Z',
    creditValueMicros: 1,
  });
  const signer = { download: async (key: string) => ({ url: `https://signed.example/${key}`, expiresAt: '2026-03-01T10:05:00.000Z' }) };

  it("downloads for the owner and admins only; anyone else's license answers like an unknown one", async () => {
    const deps = { generations: { getLicense: async (id: string) => (id === 'lic_AAAAAAAAAAAAAAAAAAAAAA' ? license('acc-1') : undefined) }, signer };
    await expect(downloadLicense(deps, { accountId: 'acc-1' }, 'lic_AAAAAAAAAAAAAAAAAAAAAA')).resolves.toMatchObject({ filename: 'humanly-maya-chen-lic_AAAAAAAAAAAAAAAAAAAAAA.png' });
    await expect(downloadLicense(deps, 'admin', 'lic_AAAAAAAAAAAAAAAAAAAAAA')).resolves.toMatchObject({ url: expect.stringContaining('generations/acc-1/') });
    for (const id of ['lic_AAAAAAAAAAAAAAAAAAAAAA', 'lic_BBBBBBBBBBBBBBBBBBBBBB', 'nope']) {
      await expect(downloadLicense(deps, { accountId: 'acc-2' }, id)).rejects.toMatchObject({ status: 404, message: 'License not found' });
    }
  });

  it('pages the filtered list as the console pages, newest first by default', async () => {
    const records = Array.from({ length: 5 }, (_, i) => ({ id: `g${i}`, createdAt: `2026-03-0${i + 1}T00:00:00.000Z`, steps: [], images: [] }) as unknown as GenerationRecord);
    const seen: unknown[] = [];
    const deps = { generations: { listAll: async (filter: unknown) => (seen.push(filter), records) } };
    const query = { status: 'failed' as const, talentId: 'maya-chen', sort: 'createdAt' as const, order: 'DESC' as const, offset: 1, limit: 2 };
    const page = await listGenerationsAdmin(deps, query);
    expect(page.total).toBe(5);
    expect(page.items.map((i) => i.id)).toEqual(['g3', 'g2']);
    expect(seen).toEqual([{ status: 'failed', talentId: 'maya-chen', accountId: undefined }]);
    expect((await listGenerationsAdmin(deps, { ...query, order: 'ASC', offset: 0 })).items.map((i) => i.id)).toEqual(['g0', 'g1']);
  });
});
