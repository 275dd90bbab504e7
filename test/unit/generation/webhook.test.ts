// The Replicate webhook route and the monthly allowance without AWS: what a bad signature, a
// replay, a foreign prediction and a finished execution change (nothing), and which clients the
// allowance reaches.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { handleReplicateWebhook, PREDICTION_MISMATCH_MESSAGE, type WebhookDeps } from '../../../functions/generation/routes/replicate-webhook/service';
import { grantMonthlyAllowance } from '../../../functions/accounts/triggers/monthly-allowance/service';
import { FAILURE_METRICS } from '../../../events/metrics';
import { ConflictError } from '../../../functions/shared/errors';
import { httpHandler, type HttpEvent } from '../../../functions/shared/http';
import { inMemoryIdempotency, type Once } from '../../../functions/shared/idempotency';
import { noRateLimit } from '../../../functions/shared/rate-limit';
import type { AccountStore } from '../../../functions/accounts/store';
import type { CreditLedger } from '../../../functions/accounts/credits';
import type { GenerationStore } from '../../../functions/generation/store';
import { metricsWritten } from '../../support/metrics';

const GEN = '0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f';
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const NOW = new Date();

function signed(prediction: Record<string, unknown>, webhookId = `msg_${randomBytes(6).toString('hex')}`, secret = SECRET): HttpEvent {
  const body = JSON.stringify({ id: 'p1', status: 'succeeded', output: ['https://replicate.example/0.png'], error: null, ...prediction });
  return {
    headers: {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(NOW.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(webhookId, NOW, body),
    },
    body,
    isBase64Encoded: false,
    queryStringParameters: { generation: GEN },
    requestContext: { http: { sourceIp: '203.0.113.9' } },
  } as unknown as HttpEvent;
}

function fakes(generation: Record<string, unknown> | undefined, options: { spentToken?: boolean; storeError?: boolean } = {}) {
  const writes: string[] = [];
  // The idempotency utility in memory; `mark` and `unmark` record a delivery's record being taken and dropped after a failed apply.
  const records = inMemoryIdempotency();
  const once: Once = (options, input, fn) =>
    records(options, input, async (i) => {
      const id = (i as { webhookId: string }).webhookId;
      writes.push(`mark ${id}`);
      try {
        return await fn(i);
      } catch (err) {
        writes.push(`unmark ${id}`);
        throw err;
      }
    });
  const store = {
    getForWorkflow: async () => generation,
    storeFinalPrediction: async (_id: string, p: { status: string }) => {
      if (options.storeError) throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
      writes.push(`final ${p.status}`);
      return { mismatch: false, taskToken: generation?.taskToken };
    },
    recordStep: async (_id: string, step: { detail?: string }, set: Record<string, unknown> = {}) => void writes.push(`step ${step.detail} ${JSON.stringify(set)}`),
    adoptPrediction: async (_id: string, predictionId: string) => {
      if (generation?.predictionId && generation.predictionId !== predictionId) return false;
      if (!generation?.predictionId) writes.push(`adopt ${predictionId}`);
      return true;
    },
  } as unknown as GenerationStore;
  const resumed: unknown[] = [];
  const deps: WebhookDeps = {
    store,
    secret: async () => SECRET,
    resume: async (token, output) => {
      // resumeTask's answer for a token no execution waits on.
      if (options.spentToken) return false;
      resumed.push({ token, output });
      return true;
    },
    limit: noRateLimit,
    once,
    now: () => NOW,
  };
  const call = (event: HttpEvent) => httpHandler((e) => handleReplicateWebhook(deps, e))(event);
  return { deps, writes, resumed, call };
}

describe('Replicate webhook', () => {
  const waiting = { id: GEN, predictionId: 'p1', status: 'processing', taskToken: 'token-1' };

  it('a completed prediction is stored once and resumes the waiting execution; replays answer 200 and change nothing', async () => {
    const f = fakes(waiting);
    const event = signed({});
    expect(await f.call(event)).toMatchObject({ statusCode: 200, body: JSON.stringify({ received: true }) });
    for (let i = 0; i < 3; i++) expect(await f.call(event)).toMatchObject({ statusCode: 200, body: JSON.stringify({ received: true, replay: true }) });
    expect(f.writes.filter((w) => !w.startsWith('mark'))).toEqual(['final succeeded', 'step completed: succeeded {}']);
    expect(f.resumed).toEqual([{ token: 'token-1', output: { status: 'succeeded', error: '' } }]);
  });

  it('a bad signature, another secret or a tampered body: 401 and nothing read or written', async () => {
    const f = fakes(waiting);
    const event = signed({});
    const tampered = { ...event, body: event.body!.replace('succeeded', 'failed') } as HttpEvent;
    const otherSecret = signed({}, 'msg_x', `whsec_${randomBytes(32).toString('base64')}`);
    const unsigned = { ...event, headers: { 'content-type': 'application/json' } } as HttpEvent;
    for (const bad of [tampered, otherSecret, unsigned]) {
      const res = await f.call(bad);
      expect(res.statusCode).toBe(401);
      expect(JSON.parse(res.body as string).error).toMatch(/^Webhook signature is not valid/);
    }
    expect(f.writes).toEqual([]);
    expect(f.resumed).toEqual([]);
  });

  it('a prediction that is not the generation\'s: 409 and nothing written; no such generation: 404; no generation id: 400', async () => {
    const foreign = fakes({ ...waiting, predictionId: 'p-other' });
    expect(await foreign.call(signed({}))).toMatchObject({ statusCode: 409, body: JSON.stringify({ error: PREDICTION_MISMATCH_MESSAGE }) });
    expect(foreign.writes).toEqual([]);
    expect((await fakes(undefined).call(signed({}))).statusCode).toBe(404);
    const noId = { ...signed({}), queryStringParameters: {} } as HttpEvent;
    expect((await fakes(waiting).call(noId)).statusCode).toBe(400);
  });

  it('running news moves the status on; a start before StartPrediction recorded the id records it (a create whose answer was lost)', async () => {
    const f = fakes(waiting);
    expect((await f.call(signed({ status: 'processing', output: null }))).statusCode).toBe(200);
    expect(f.writes.filter((w) => w.startsWith('step'))).toEqual(['step processing {"status":"processing"}']);
    const early = fakes({ ...waiting, predictionId: undefined, status: 'queued' });
    expect((await early.call(signed({ status: 'starting', output: null }))).statusCode).toBe(200);
    expect(early.writes.filter((w) => !w.startsWith('mark'))).toEqual(['adopt p1']);
  });

  it('an execution that no longer waits (polling took over) is not an error; a store failure forgets the delivery so Replicate\'s retry applies', async () => {
    const stale = fakes(waiting, { spentToken: true });
    expect((await stale.call(signed({}))).statusCode).toBe(200);
    const failing = fakes(waiting, { storeError: true });
    const event = signed({}, 'msg_retry');
    expect((await failing.call(event)).statusCode).toBe(500);
    expect(failing.writes).toEqual(['mark msg_retry', 'unmark msg_retry']);
  });

  it('a signed delivery that cannot be applied is counted as a webhook failure (an alarm watches it); a replay or a bad signature is not', async () => {
    const options = { storeError: true };
    const f = fakes(waiting, options);
    const event = signed({}, 'msg_counted');
    const failed = await metricsWritten(() => f.call(event));
    expect(failed.map((m) => [m.name, m.value, m.line.generationId])).toEqual(
      expect.arrayContaining([[FAILURE_METRICS.webhookApplyFailed, 1, GEN]]),
    );
    options.storeError = false;
    const later = await metricsWritten(async () => {
      await f.call(event);
      await f.call(event);
      await f.call({ ...event, body: event.body!.replace('succeeded', 'failed') } as HttpEvent);
    });
    expect(later).toEqual([]);
  });

  it('a delivery whose apply failed is applied when Replicate retries it, and replayed after that', async () => {
    const options = { storeError: true };
    const f = fakes(waiting, options);
    const event = signed({}, 'msg_again');
    expect((await f.call(event)).statusCode).toBe(500);
    options.storeError = false;
    expect(await f.call(event)).toMatchObject({ statusCode: 200, body: JSON.stringify({ received: true }) });
    expect(await f.call(event)).toMatchObject({ statusCode: 200, body: JSON.stringify({ received: true, replay: true }) });
    expect(f.resumed).toEqual([{ token: 'token-1', output: { status: 'succeeded', error: '' } }]);
  });
  it('the same delivery made twice at the same moment is applied once and both answer 200 (the second waits for the first)', async () => {
    const f = fakes(waiting);
    const event = signed({}, 'msg_twice');
    const answers = await Promise.all([f.call(event), f.call(event)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.body).sort()).toEqual([JSON.stringify({ received: true }), JSON.stringify({ received: true, replay: true })].sort());
    expect(f.resumed).toHaveLength(1);
  });
});

describe('monthly allowance', () => {
  it('grants each paid plan\'s clients their monthly credits under the month\'s key, page by page, and counts earlier grants', async () => {
    const clients: Record<string, string[]> = { starter: ['s1', 's2'], pro: ['p1'], enterprise: [] };
    const listed: unknown[] = [];
    const accounts = {
      list: async (q: { plan: string; offset: number; limit: number }) => {
        listed.push(q);
        const all = clients[q.plan] ?? [];
        return { items: all.slice(q.offset, q.offset + q.limit).map((id) => ({ id })), total: all.length };
      },
    } as unknown as AccountStore;
    const grants: string[] = [];
    const ledger = {
      grant: async (id: string, c: { credits: number; key: string; reason: string }) => {
        if (id === 's2') throw new ConflictError('This idempotency key was already used for a different credit change. Use a new key.');
        grants.push(`${id} ${c.credits} ${c.key} ${c.reason}`);
        return { replayed: id === 'p1' };
      },
    } as unknown as CreditLedger;
    const result = await grantMonthlyAllowance({ accounts, ledger, now: () => new Date('2026-05-20T00:00:00Z') }, { time: '2026-06-01T00:05:00Z' });
    expect(result).toEqual({ month: '2026-06', granted: 1, alreadyGranted: 2 });
    expect(grants).toEqual(['s1 80 allowance:2026-06 Starter plan credits for 2026-06', 'p1 300 allowance:2026-06 Pro plan credits for 2026-06']);
    // Every plan is listed: the Free plan's credits go monthly to clients who signed in.
    expect(listed.map((q) => (q as { plan: string; role: string }).plan)).toEqual(['free', 'starter', 'pro', 'enterprise']);
    expect(listed.every((q) => (q as { role: string }).role === 'client')).toBe(true);
  });
});
