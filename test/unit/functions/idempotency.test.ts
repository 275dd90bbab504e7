import { isConditionFailure } from '../../../functions/shared/errors';
import type { Email } from '../../../functions/shared/email-layout';
import { inMemoryIdempotency, sendOnce, withIdempotencyKey, type OnceOptions } from '../../../functions/shared/idempotency';

const options: OnceOptions<{ n: number }> = { name: 'test-op', key: 'id', expiresAfterSeconds: 60 };

describe('the idempotency utility (in-memory persistence, Powertools logic)', () => {
  it('runs once per key and replays the kept answer', async () => {
    const once = inMemoryIdempotency();
    let runs = 0;
    const fn = async () => ({ n: ++runs });
    expect(await once(options, { id: 'a' }, fn)).toEqual({ n: 1 });
    expect(await once(options, { id: 'a', other: 'ignored' }, fn)).toEqual({ n: 1 });
    expect(await once(options, { id: 'b' }, fn)).toEqual({ n: 2 });
    expect(runs).toBe(2);
  });

  it('lets onReplay mark a replayed answer', async () => {
    const once = inMemoryIdempotency();
    const opts = { ...options, onReplay: (kept: { n: number }) => ({ n: -kept.n }) };
    expect(await once(opts, { id: 'a' }, async () => ({ n: 1 }))).toEqual({ n: 1 });
    expect(await once(opts, { id: 'a' }, async () => ({ n: 2 }))).toEqual({ n: -1 });
  });

  it('keeps nothing for a failed run, so its retry runs again', async () => {
    const once = inMemoryIdempotency();
    await expect(once(options, { id: 'a' }, async () => Promise.reject(new Error('SES down')))).rejects.toThrow('SES down');
    expect(await once(options, { id: 'a' }, async () => ({ n: 7 }))).toEqual({ n: 7 });
  });

  it('refuses a second run of a key still in progress with 409', async () => {
    const once = inMemoryIdempotency();
    let release!: () => void;
    const first = once(options, { id: 'a' }, () => new Promise<{ n: number }>((resolve) => (release = () => resolve({ n: 1 }))));
    await new Promise((r) => setImmediate(r));
    await expect(once({ ...options, inProgressMessage: 'busy' }, { id: 'a' }, async () => ({ n: 2 }))).rejects.toMatchObject({ status: 409, message: 'busy' });
    release();
    expect(await first).toEqual({ n: 1 });
  });

  it('runs without idempotency when the key selects nothing', async () => {
    const once = inMemoryIdempotency();
    let runs = 0;
    await once(options, { id: null }, async () => ({ n: ++runs }));
    await once(options, { id: null }, async () => ({ n: ++runs }));
    expect(runs).toBe(2);
  });
});

describe('sendOnce', () => {
  const email: Email = { subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };
  const operation = { name: 'test-email', key: 'k1', expiresAfterSeconds: 60 };

  it('sends once per key: true when sent, false (and nothing sent) on a repeat; another key sends again', async () => {
    const sent: string[] = [];
    let built = 0;
    const deps = { once: inMemoryIdempotency(), send: async (to: string) => void sent.push(to) };
    const build = () => (built++, email);
    expect(await sendOnce(deps, operation, 'a@example.com', build)).toBe(true);
    expect(await sendOnce(deps, operation, 'a@example.com', build)).toBe(false);
    expect(await sendOnce(deps, { ...operation, key: 'k2' }, 'b@example.com', build)).toBe(true);
    expect(sent).toEqual(['a@example.com', 'b@example.com']);
    expect(built).toBe(2);
  });

  it('keeps nothing when the send fails, so the retry sends it', async () => {
    const sent: string[] = [];
    let fail = true;
    const deps = {
      once: inMemoryIdempotency(),
      send: async (to: string) => {
        if (fail) throw new Error('SES throttled');
        sent.push(to);
      },
    };
    await expect(sendOnce(deps, operation, 'a@example.com', () => email)).rejects.toThrow('SES throttled');
    fail = false;
    expect(await sendOnce(deps, operation, 'a@example.com', () => email)).toBe(true);
    expect(sent).toEqual(['a@example.com']);
  });
});

describe('withIdempotencyKey', () => {
  it('replays for the same key and body, refuses the same key with another body (422), and runs every time without a key', async () => {
    const once = inMemoryIdempotency();
    let runs = 0;
    const fn = async (req: { email: string }) => ({ email: req.email, run: ++runs });
    const a = await withIdempotencyKey(once, 'route', 'k1', { email: 'a@x.io' }, fn);
    expect(await withIdempotencyKey(once, 'route', 'k1', { email: 'a@x.io' }, fn)).toEqual(a);
    await expect(withIdempotencyKey(once, 'route', 'k1', { email: 'b@x.io' }, fn)).rejects.toMatchObject({ status: 422 });
    await withIdempotencyKey(once, 'route', undefined, { email: 'a@x.io' }, fn);
    await withIdempotencyKey(once, 'route', undefined, { email: 'a@x.io' }, fn);
    expect(runs).toBe(3);
  });
});

describe('isConditionFailure', () => {
  it('recognises DynamoDB refusing a condition, and nothing else', () => {
    expect(isConditionFailure(Object.assign(new Error('no'), { name: 'ConditionalCheckFailedException' }))).toBe(true);
    expect(isConditionFailure(new Error('throttled'))).toBe(false);
    expect(isConditionFailure(undefined)).toBe(false);
  });
});
