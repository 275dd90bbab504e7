// The Generation workflow on the twin (docs/generation.md): the state machine, its functions,
// the Replicate emulator's predictions and signed webhooks, DynamoDB Local and the S3 emulator,
// all real. Generations are stored with the store and started with StartExecution, as the
// start route does, so each test reaches the workflow directly. Faults come from the emulator.
import { createHash, randomUUID } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as fc from 'fast-check';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import {
  GENERATION_CANCELED_MESSAGE,
  IPTC_TRAINED_ALGORITHMIC_MEDIA,
  PREDICTION_FAILED_MESSAGE,
  TALENT_PAUSED_MESSAGE,
  TALENT_REMOVED_MESSAGE,
  TIMED_OUT_MESSAGE,
  XMP_NAMESPACE,
  excludedIndustryMessage,
  modelFailuresMessage,
  type Style,
} from '../../../events/generation-values';
import { seedUser } from '../../../infra/local/provision';
import { failureBudget, nextUtcMidnight } from '../../../functions/generation/failure-budget';
import { PROMOTIONAL_CREDIT_VALUE_MICROS, PROMOTIONAL_LOT, planLot } from '../../../events/plans';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { generationStore, type GenerationRecord } from '../../../functions/generation/store';
import { generationKeys, monthOf } from '../../../functions/generation/keys';
import { callApi, documentClient, idToken, useTwin } from '../../support/twin';
import { eventually } from '../../support/eventually';

jest.setTimeout(240_000);
// A twin of its own: fast waits (the 90 s webhook wait lasts 90 ms, a poll's 5 s pause 5 ms) and a
// quick emulator, so a generation by webhook takes about a second.
const twin = useTwin({ own: true, replicateLatency: { startingMs: 20, processingMs: 40 } });

const doc = () => documentClient(twin());
const tables = () => ({
  generations: twin().physicalName('GenerationsTable'),
  accounts: twin().physicalName('AccountsTable'),
  talent: twin().physicalName('CatalogTalentTable'),
});
const stores = () => ({
  generations: generationStore(doc(), tables().generations),
  accounts: accountStore(doc(), tables().accounts),
  ledger: creditLedger(doc(), tables().accounts),
});
/** A webhook delivery's record of the idempotency utility (operation `replicate-webhook`, keyed by its id), with when it expires. */
async function deliveryRecord(webhookId: string): Promise<{ expiresAt: number } | undefined> {
  const id = `replicate-webhook#${createHash('md5').update(JSON.stringify(webhookId)).digest('base64')}`;
  const item = (await doc().send(new GetCommand({ TableName: twin().physicalName('IdempotencyTable'), Key: { id }, ConsistentRead: true }))).Item;
  return item && { expiresAt: item.expiration };
}
const s3 = () => new S3Client({ endpoint: twin().urls.s3, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS }, forcePathStyle: true });
const sfn = () => new SFNClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });

/** The Generation state machine's ARN on the twin, from its name in the template. */
function workflowArn(): string {
  const [, machine] = Object.entries(twin().template.Resources).find(([id, r]) => r.Type === 'AWS::StepFunctions::StateMachine' && id.startsWith('GenerationWorkflow'))!;
  const name = machine.Properties?.StateMachineName;
  if (typeof name !== 'string') throw new Error('the Generation state machine has no literal name in the template');
  return twin().functions()[0].arn.replace(/^arn:aws:lambda:([^:]+):([^:]+):.*$/, `arn:aws:states:$1:$2:stateMachine:${name}`);
}

/** A client of this run (10 starting credits), with `extra` granted on top. */
async function newClient(extra = 0): Promise<string> {
  const id = randomUUID();
  await stores().accounts.create({ id, email: `gen.${id}@clients.example`, full_name: 'Gen Client', role: 'client' });
  if (extra > 0) await stores().ledger.grant(id, { credits: extra, key: 'test-topup', reason: 'Test credits', lot: planLot('starter') });
  return id;
}

/** An active talent of this run: Maya Chen's catalog item under a new id, generated with her preview model. */
async function newTalent(controls: Record<string, unknown> = {}): Promise<string> {
  const maya = (await doc().send(new GetCommand({ TableName: tables().talent, Key: { id: 'maya-chen' } }))).Item!;
  const id = `gen-test-${randomUUID().slice(0, 8)}`;
  await doc().send(
    new PutCommand({
      TableName: tables().talent,
      Item: { ...maya, id, name: 'Test Talent', generationCount: 0, excludedIndustries: [], generation: { model: 'humanly-preview/maya-chen', triggerWord: 'TSTWRD' }, ...controls },
    }),
  );
  return id;
}

/** Stores a generation as the start route does (status queued) and starts its execution. */
async function start(accountId: string, talentId: string, options: { count?: number; prompt?: string; style?: Style } = {}): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const record: GenerationRecord = {
    id,
    accountId,
    clientEmail: `gen.${accountId}@clients.example`,
    licensee: 'Gen Client',
    planId: 'starter',
    talentId,
    talentName: 'Test Talent',
    prompt: options.prompt ?? 'a ceramicist in her sunlit studio',
    style: options.style ?? 'Photorealistic',
    count: options.count ?? 1,
    status: 'queued',
    createdAt: now,
    updatedAt: now,
    creditsReserved: 0,
    creditsSpent: 0,
    executionName: id,
    steps: [],
    images: [],
  };
  await stores().generations.create(record);
  await sfn().send(new StartExecutionCommand({ stateMachineArn: workflowArn(), name: id, input: JSON.stringify({ generationId: id }) }));
  return id;
}

/** The execution's status once it has ended. */
function executionStatus(id: string): Promise<string | undefined> {
  const executionArn = `${workflowArn().replace(':stateMachine:', ':execution:')}:${id}`;
  return eventually(
    async () => {
      const { status } = await sfn().send(new DescribeExecutionCommand({ executionArn }));
      return status !== 'RUNNING' && status;
    },
    { what: `execution ${id} to end` },
  );
}

/** The generation once final (succeeded, failed or canceled). */
function finished(id: string, timeoutMs = 60_000): Promise<GenerationRecord> {
  return eventually(
    async () => {
      const g = await stores().generations.get(id);
      if (!g || !['succeeded', 'failed', 'canceled'].includes(g.status)) throw new Error(`generation ${id} still ${g?.status}`);
      return g;
    },
    { timeoutMs, what: `generation ${id} to finish` },
  );
}

const balance = (accountId: string) => stores().ledger.balance(accountId);

/** The Authorization header the Replicate emulator accepts: the token the template's secret holds, read as the functions read it. */
async function replicateAuth(): Promise<{ authorization: string }> {
  const secretId = Object.keys(twin().template.Resources).find((lid) => lid.startsWith('ReplicateToken') && twin().template.Resources[lid].Type === 'AWS::SecretsManager::Secret')!;
  const sm = new SecretsManagerClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  return { authorization: `Bearer ${(await sm.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString!}` };
}
const predictionsOf = async (talentPrompt: string) => (await twin().replicate.predictions()).filter((p) => String(p.input.prompt).includes(talentPrompt));

afterEach(async () => twin().replicate.clear());

describe('generation workflow on the twin', () => {
  it('delivers the images into our bucket with XMP provenance and a license each, and debits exactly the images delivered', async () => {
    const client = await newClient();
    const talent = await newTalent();
    const prompt = `a ceramicist glazing a bowl ${randomUUID().slice(0, 6)}`;
    const id = await start(client, talent, { count: 2, prompt, style: 'Editorial' });
    const g = await finished(id);

    expect(g).toMatchObject({ status: 'succeeded', creditsReserved: 2, creditsSpent: 2 });
    expect(g.failure).toBeUndefined();
    expect(g.images).toHaveLength(2);
    expect(g.steps.map((s) => s.step)).toEqual(expect.arrayContaining(['ReserveCredits', 'CheckPolicy', 'StartPrediction', 'DeliverImages']));
    // The model got the trigger word, the styled prompt and the spec's parameters.
    const [prediction] = await predictionsOf(prompt);
    expect(prediction).toMatchObject({ model: 'humanly-preview/maya-chen', input: { prompt: `TSTWRD ${prompt}, Editorial style`, num_outputs: 2, aspect_ratio: '1:1', output_format: 'png' } });
    expect(prediction.webhook).toBe(`${twin().urls.api}/webhooks/replicate?generation=${id}`);
    expect(prediction.webhookEventsFilter).toEqual(['start', 'completed']);
    expect(g.predictionId).toBe(prediction.id);

    for (const image of g.images) {
      expect(image.key).toBe(`generations/${client}/${id}/${image.licenseId}.png`);
      const object = await s3().send(new GetObjectCommand({ Bucket: twin().physicalName('GeneratedImages'), Key: image.key }));
      const file = Buffer.from(await object.Body!.transformToByteArray());
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe('png');
      const xmp = meta.xmp!.toString('utf8');
      expect(xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${IPTC_TRAINED_ALGORITHMIC_MEDIA}"`);
      expect(xmp).toContain(`xmlns:humanly="${XMP_NAMESPACE}"`);
      expect(xmp).toContain(`humanly:LicenseId="${image.licenseId}"`);
      expect(xmp).toContain(`humanly:TalentId="${talent}"`);
      expect(xmp).toMatch(new RegExp(`xmpRights:WebStatement="http[^"]+/licenses/${image.licenseId}"`));

      expect(await stores().generations.getLicense(image.licenseId)).toMatchObject({
        id: image.licenseId,
        generationId: id,
        index: image.index,
        key: image.key,
        talentId: talent,
        accountId: client,
        licensee: 'Gen Client',
        style: 'Editorial',
        scope: 'commercial',
        // The client's oldest credits are the Free plan's: promotional, at the cheapest paid credit's value.
        creditValueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS,
      });
      const accrual = await doc().send(new GetCommand({ TableName: tables().generations, Key: generationKeys.accrual(talent, monthOf(g.createdAt), image.licenseId) }));
      // With the talent's royalty plan at issue (the test talent is a copy of Maya Chen, founding).
      expect(accrual.Item).toMatchObject({ licenseId: image.licenseId, generationId: id, accountId: client, planId: 'starter', creditValueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, promotional: true, royaltyPlan: 'founding-35' });
    }
    expect(new Set(g.images.map((i) => i.licenseId)).size).toBe(2);
    expect(await balance(client)).toBe(8);
    expect(await stores().ledger.reservation(client, id)).toEqual({ reserved: 2, committed: 2, released: 0, open: 0 });
    expect(await stores().generations.usageByMonth(talent)).toEqual([{ month: monthOf(new Date().toISOString()), images: 2 }]);
    const catalog = await doc().send(new GetCommand({ TableName: tables().talent, Key: { id: talent } }));
    expect(catalog.Item?.generationCount).toBe(2);
  });

  it('a failed prediction, a time-out after the polling limit, and a prediction canceled at Replicate each return every credit with a message', async () => {
    const client = await newClient();
    const talent = await newTalent();
    const tag = randomUUID().slice(0, 6);
    await twin().replicate.inject({ kind: 'prediction-failed', times: 1 });
    const failed = await start(client, talent, { count: 2, prompt: `failing ${tag}` });
    const failedG = await finished(failed);
    await twin().replicate.inject({ kind: 'never-finish', times: 1 });
    const stuck = await start(client, talent, { count: 1, prompt: `stuck ${tag}` });
    const stuckG = await finished(stuck);
    // Canceled at Replicate while running (its deadline, or by hand): the completed webhook says canceled.
    await twin().replicate.inject({ kind: 'never-finish', times: 1 });
    const canceled = await start(client, talent, { count: 1, prompt: `canceled ${tag}` });
    const running = await eventually(async () => (await predictionsOf(`canceled ${tag}`))[0], { what: 'the prediction to cancel' });
    const cancel = await fetch(`${twin().urls.replicate}/v1/predictions/${running.id}/cancel`, { method: 'POST', headers: await replicateAuth() });
    expect(cancel.status).toBe(200);
    const canceledG = await finished(canceled);

    expect(failedG).toMatchObject({ status: 'failed', creditsSpent: 0, failure: { code: 'prediction-failed', message: PREDICTION_FAILED_MESSAGE }, images: [] });
    // Replicate's error text is for the console's steps only.
    expect(failedG.steps.at(-1)?.detail).toMatch(/^prediction-failed: prediction failed: .+/);
    expect(stuckG).toMatchObject({ status: 'failed', creditsSpent: 0, failure: { code: 'timed-out', message: TIMED_OUT_MESSAGE } });
    // The time-out canceled the prediction at Replicate.
    const [stuckPrediction] = await predictionsOf(`stuck ${tag}`);
    expect(stuckPrediction.status).toBe('canceled');
    expect(await balance(client)).toBe(10);
    expect(canceledG).toMatchObject({ status: 'canceled', creditsSpent: 0, failure: { code: 'canceled', message: GENERATION_CANCELED_MESSAGE } });
    expect(await balance(client)).toBe(10);
    for (const id of [failed, stuck, canceled]) expect(await stores().ledger.reservation(client, id)).toMatchObject({ committed: 0, open: 0 });
  });

  it('the completed webhook replayed 3 times debits once; a bad signature gets 401 and changes nothing', async () => {
    const client = await newClient();
    const talent = await newTalent();
    const tag = `replayed ${randomUUID().slice(0, 6)}`;
    // The emulator's own completed webhook is lost: the replays below are the only ones.
    await twin().replicate.inject({ kind: 'lose-webhook', events: ['completed'], times: 1 });
    const id = await start(client, talent, { count: 2, prompt: tag });

    // The prediction as Replicate reports it once done, signed with the account's webhook secret.
    const auth = await replicateAuth();
    const { key: secret } = (await (await fetch(`${twin().urls.replicate}/v1/webhooks/default/secret`, { headers: auth })).json()) as { key: string };
    const done = await eventually(
      async () => {
        const [p] = await predictionsOf(tag);
        const got = p && ((await (await fetch(`${twin().urls.replicate}/v1/predictions/${p.id}`, { headers: auth })).json()) as Record<string, unknown>);
        return got?.status === 'succeeded' && got;
      },
      { what: 'the prediction to succeed' },
    );
    expect(done?.status).toBe('succeeded');
    const body = JSON.stringify(done);
    const webhookId = `msg_${randomUUID()}`;
    const at = new Date();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
    };
    const url = `${twin().urls.api}/webhooks/replicate?generation=${id}`;

    // Forged deliveries first: refused before anything is read or written (no delivery record, no step;
    // the tampered one says failed, and the generation still succeeds below).
    const forgedId = `msg_${randomUUID()}`;
    const forged = await fetch(url, { method: 'POST', headers: { ...headers, 'webhook-id': forgedId, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` }, body });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: expect.stringMatching(/^Webhook signature is not valid/) });
    const tampered = await fetch(url, { method: 'POST', headers, body: body.replace('"succeeded"', '"failed"') });
    expect(tampered.status).toBe(401);
    for (const guard of [forgedId, webhookId]) {
      expect(await deliveryRecord(guard)).toBeUndefined();
    }
    expect((await stores().generations.get(id))?.steps.some((s) => s.step === 'Webhook')).toBe(false);

    const answers = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(url, { method: 'POST', headers, body });
      answers.push({ status: res.status, body: await res.json() });
    }
    expect(answers[0]).toEqual({ status: 200, body: { received: true } });
    for (const replay of answers.slice(1)) expect(replay).toEqual({ status: 200, body: { received: true, replay: true } });

    const g = await finished(id);
    expect(g).toMatchObject({ status: 'succeeded', creditsSpent: 2 });
    expect(g.steps.filter((s) => s.step === 'Webhook' && s.detail === 'completed: succeeded')).toHaveLength(1);
    expect((await deliveryRecord(webhookId))?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
    expect(await balance(client)).toBe(8);
    expect(await stores().ledger.reservation(client, id)).toMatchObject({ committed: 2, released: 0, open: 0 });
    const ledger = (await stores().ledger.entries(client, { limit: 20 })).entries.filter((e) => e.generationId === id);
    // One reserve, and one commit per delivered image (each in its license's transaction).
    expect(ledger.map((e) => e.kind).sort()).toEqual(['commit', 'commit', 'reserve']);
  });

  it('a lost webhook is finished by polling, and 429s from Replicate are retried into a success with one prediction', async () => {
    const client = await newClient();
    const talent = await newTalent();
    const tag = randomUUID().slice(0, 6);
    await twin().replicate.inject({ kind: 'lose-webhook', events: ['completed'], times: 1 });
    const lost = await start(client, talent, { prompt: `lost ${tag}` });
    const lostG = await finished(lost);
    await twin().replicate.inject({ kind: 'http-429', times: 2, retryAfterSeconds: 0 });
    const throttled = await start(client, talent, { prompt: `throttled ${tag}` });
    const throttledG = await finished(throttled);

    expect(lostG).toMatchObject({ status: 'succeeded', creditsSpent: 1 });
    expect(lostG.steps).toContainEqual(expect.objectContaining({ step: 'PollPrediction', detail: 'succeeded (found by polling)' }));
    expect(lostG.steps.some((s) => s.step === 'Webhook' && s.detail?.startsWith('completed'))).toBe(false);
    expect(throttledG).toMatchObject({ status: 'succeeded', creditsSpent: 1 });
    expect(await predictionsOf(`throttled ${tag}`)).toHaveLength(1);
    expect(await balance(client)).toBe(8);
  });

  it('refusals: not enough credits reserves nothing; an excluded industry, a paused and a removed talent name their reason and return the credits', async () => {
    const poor = await newClient();
    await stores().ledger.reserve(poor, { credits: 9, key: 'elsewhere', generationId: randomUUID(), reason: 'Another generation' });
    const client = await newClient();
    const tag = randomUUID().slice(0, 6);
    const [plain, excluding, paused, removed] = await Promise.all([
      newTalent(),
      newTalent({ excludedIndustries: ['alcohol'] }),
      newTalent({ paused: true }),
      newTalent({ removedAt: '2026-01-01T00:00:00.000Z' }),
    ]);
    const ids = await Promise.all([
      start(poor, plain, { count: 2, prompt: `short ${tag}` }),
      start(client, excluding, { count: 2, prompt: `two friends toasting with red wine ${tag}` }),
      start(client, paused, { count: 2, prompt: `paused ${tag}` }),
      start(client, removed, { count: 2, prompt: `removed ${tag}` }),
    ]);
    const [short, excluded, pausedG, removedG] = await Promise.all(ids.map((id) => finished(id)));

    expect(short).toMatchObject({ status: 'failed', creditsReserved: 0, failure: { code: 'insufficient-credits', message: 'Not enough credits: this needs 2 and your balance is 1.' } });
    expect(await stores().ledger.reservation(poor, ids[0])).toBeUndefined();
    expect(await balance(poor)).toBe(1);
    expect(excluded.failure).toEqual({ code: 'policy', message: excludedIndustryMessage('alcohol') });
    expect(excluded.failure?.message).toContain('alcohol');
    expect(pausedG.failure).toEqual({ code: 'policy', message: TALENT_PAUSED_MESSAGE });
    expect(removedG.failure).toEqual({ code: 'policy', message: TALENT_REMOVED_MESSAGE });
    for (const g of [excluded, pausedG, removedG]) expect(g).toMatchObject({ status: 'failed', creditsSpent: 0, images: [] });
    // No prediction was started for any of them, and every reserved credit came back.
    expect(await predictionsOf(tag)).toEqual([]);
    expect(await balance(client)).toBe(10);
    // A refusal is the client's answer, not a fault: the executions succeed (Refused), so the
    // state machine's Failed alarm is left for real failures.
    for (const id of ids) expect(await executionStatus(id)).toBe('SUCCEEDED');
  });

  it('100 concurrent generations of 1 image against 10 credits deliver at most 10 images; the rest are refused cleanly', async () => {
    const client = await newClient();
    const talent = await newTalent();
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => start(client, talent, { prompt: `crowd ${i}` })));
    const results = await Promise.all(ids.map((id) => finished(id, 120_000)));
    const delivered = results.filter((g) => g.status === 'succeeded');
    const refused = results.filter((g) => g.status !== 'succeeded');
    expect(delivered.length).toBeLessThanOrEqual(10);
    expect(delivered.length).toBeGreaterThan(0);
    for (const g of refused) expect(g.failure).toEqual({ code: 'insufficient-credits', message: expect.stringMatching(/^Not enough credits: this needs 1 and your balance is \d+\.$/) });
    const images = delivered.reduce((n, g) => n + g.images.length, 0);
    expect(images).toBe(delivered.length);
    expect(await balance(client)).toBe(10 - images);
    expect(await balance(client)).toBeGreaterThanOrEqual(0);
  });

  it('reconciliation: over random grants, reserves, commits and releases (replays included), the balance equals the ledger total (property, 12 runs)', async () => {
    const { ledger } = stores();
    type Op = { kind: 'grant' | 'reserve' | 'commit' | 'release'; credits: number; gen: number; replay: boolean };
    const op = fc.record({
      kind: fc.constantFrom('grant' as const, 'reserve' as const, 'commit' as const, 'release' as const),
      credits: fc.integer({ min: 1, max: 6 }),
      gen: fc.integer({ min: 0, max: 2 }),
      replay: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops: Op[]) => {
        const id = await newClient();
        const gens = [randomUUID(), randomUUID(), randomUUID()];
        const keys: string[] = [];
        for (const [i, o] of ops.entries()) {
          // A replay repeats an earlier key of the same kind (the same change sent again), else a new key.
          const earlier = keys.find((k) => k.startsWith(`${o.kind}:${o.gen}:${o.credits}:`));
          const key = o.replay && earlier ? earlier : `${o.kind}:${o.gen}:${o.credits}:${i}`;
          keys.push(key);
          const change = { credits: o.credits, key, reason: 'Property test', generationId: gens[o.gen] };
          await (o.kind === 'grant' ? ledger.grant(id, { ...change, lot: PROMOTIONAL_LOT }) : ledger[o.kind](id, change)).catch((err: { status?: number }) => {
            // Refusals are clean: short balance or nothing left reserved (409), never anything else.
            if (err.status !== 409) throw err;
          });
        }
        const entries: Array<{ credits: number; balanceAfter: number }> = [];
        for (let cursor: string | undefined, first = true; first || cursor; first = false) {
          const page = await ledger.entries(id, { limit: 100, cursor });
          entries.push(...page.entries);
          cursor = page.nextCursor;
        }
        const total = entries.reduce((n, e) => n + e.credits, 0);
        const now = await ledger.balance(id);
        expect(now).toBe(total);
        expect(now).toBeGreaterThanOrEqual(0);
        expect(entries[0].balanceAfter).toBe(now);
        for (const gen of gens) {
          const r = await ledger.reservation(id, gen);
          if (r) expect(r.committed + r.released + r.open).toBe(r.reserved);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('a create whose answer is lost, its start webhook lost too: the retry finds the prediction in Replicate\'s list; one prediction, one delivery', async () => {
    const client = await newClient();
    const talent = await newTalent();
    const tag = `lost create ${randomUUID().slice(0, 6)}`;
    await twin().replicate.inject({ kind: 'lose-create-answer', times: 1 });
    await twin().replicate.inject({ kind: 'lose-webhook', events: ['start'], times: 1 });
    const id = await start(client, talent, { count: 2, prompt: tag });
    const g = await finished(id);

    expect(g).toMatchObject({ status: 'succeeded', creditsSpent: 2 });
    expect(g.images).toHaveLength(2);
    const made = await predictionsOf(tag);
    expect(made).toHaveLength(1);
    expect(g.predictionId).toBe(made[0].id);
    expect(made[0].webhook).toBe(`${twin().urls.api}/webhooks/replicate?generation=${id}`);
    expect(g.steps.filter((s) => s.step === 'StartPrediction').map((s) => s.detail)).toEqual([`prediction ${made[0].id} (found after an unanswered create)`]);
    expect(await balance(client)).toBe(8);
  });

  it('the daily budget: 20 model failures refuse the next start until 00:00 UTC with a message; a time-out and a provider 5xx do not count', async () => {
    const email = `gen.budget.${randomUUID().slice(0, 8)}@clients.example`;
    const password = 'Str0ng!Passw0rd-budget';
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password, groups: ['client'], name: 'Budget Client', attributes: { 'custom:role': 'client' } });
    const client = user.sub!;
    await stores().accounts.create({ id: client, email, full_name: 'Budget Client', role: 'client' });
    const token = await idToken(twin(), email, password, 'web');
    const talent = await newTalent();
    const tag = randomUUID().slice(0, 6);
    const startRoute = (prompt: string) => callApi(twin(), token, 'POST', '/generations', { talentId: talent, prompt, style: 'Portrait', count: 1 });
    const budget = failureBudget(doc(), tables().generations);

    // 19 failures of the model, five at a time (the client's 10 credits are reserved while each runs).
    for (let wave = 0; wave < 19; wave += 5) {
      const n = Math.min(5, 19 - wave);
      await twin().replicate.inject({ kind: 'prediction-failed', times: n });
      const ids = await Promise.all(Array.from({ length: n }, (_, i) => start(client, talent, { prompt: `model fails ${tag} ${wave + i}` })));
      for (const g of await Promise.all(ids.map((id) => finished(id)))) expect(g.failure?.code).toBe('prediction-failed');
    }
    expect(await budget.used(client, new Date())).toBe(19);

    // Our faults: a prediction that never finishes (the time-out cancels it), and Replicate answering 5xx to everything.
    await twin().replicate.inject({ kind: 'never-finish', times: 1 });
    const stuck = await finished(await start(client, talent, { prompt: `never finishes ${tag}` }));
    expect(stuck.failure?.code).toBe('timed-out');
    await twin().replicate.inject({ kind: 'http-5xx', times: 500 });
    const down = await finished(await start(client, talent, { prompt: `provider down ${tag}` }));
    await twin().replicate.clear();
    expect(down.failure?.code).toBe('error');
    expect(await predictionsOf(`provider down ${tag}`)).toEqual([]);
    expect(await budget.used(client, new Date())).toBe(19);

    // Still inside the budget: the start route takes the 20th, which the model fails too.
    await twin().replicate.inject({ kind: 'prediction-failed', times: 1 });
    const twentieth = await startRoute(`model fails ${tag} 19`);
    expect(twentieth.status).toBe(202);
    expect((await finished((twentieth.json as { id: string }).id)).failure?.code).toBe('prediction-failed');
    expect(await budget.used(client, new Date())).toBe(20);

    // Past it: refused before anything is stored, saying why and until when.
    const refused = await startRoute(`one more ${tag}`);
    const now = new Date();
    expect(refused).toMatchObject({ status: 429, json: { error: modelFailuresMessage(20, nextUtcMidnight(now)) } });
    expect((refused.json as { error: string }).error).toMatch(/at 00:00 UTC on \d{4}-\d{2}-\d{2}\.$/);
    expect(await predictionsOf(`one more ${tag}`)).toEqual([]);
    expect(await balance(client)).toBe(10);
  });

  it('the monthly allowance gives a Starter client its 80 credits once however often the rule runs; a Free client gets none', async () => {
    const { accounts } = stores();
    const starter = await newClient();
    const free = await newClient();
    await accounts.setPlan(starter, 'starter', { sub: 'admin', email: 'admin@humanly.example' });
    await twin().events.runScheduled('MonthlyAllowanceSchedule');
    await twin().events.runScheduled('MonthlyAllowanceSchedule');
    await twin().idle();
    expect(await balance(starter)).toBe(90);
    expect(await balance(free)).toBe(10);
    const grants = (await stores().ledger.entries(starter, { limit: 10 })).entries.filter((e) => e.kind === 'grant');
    expect(grants.map((e) => e.credits)).toEqual([80, 10]);
    expect(grants[0].reason).toMatch(/^Starter plan credits for \d{4}-\d{2}$/);
  });
});
