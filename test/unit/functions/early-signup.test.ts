import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import fixtureV1 from '../../../events/fixtures/waitlist-signed-up.v1.json';
import fixtureV2 from '../../../events/fixtures/waitlist-signed-up.v2.json';
import { ConfirmWaitlistRequest, EarlySignupRequest, WaitlistSignedUp, WaitlistSignedUpV2 } from '../../../events/waitlist';
import {
  WAITLIST_ADDRESS_MESSAGE,
  WAITLIST_IP_HOURLY_MESSAGE,
  WAITLIST_LINK_INVALID_MESSAGE,
} from '../../../events/waitlist-values';
import { confirm } from '../../../functions/waitlist/routes/confirm-waitlist/service';
import { hashToken } from '../../../functions/waitlist/confirmation';
import { signUp } from '../../../functions/waitlist/routes/early-signup/service';
import type { Email } from '../../../functions/shared/email-layout';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { inMemoryRateLimiter, noRateLimit } from '../../../functions/shared/rate-limit';
import { waitlistStore } from '../../../functions/waitlist/store';
import { sendWelcome } from '../../../functions/waitlist/triggers/waitlist-welcome/service';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(doc);
jest.spyOn(console, 'error').mockImplementation(() => undefined);
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);

/** The waitlist table in memory, behind the mocked client: items by key, the conditions used honoured. */
function table(capacity: number) {
  const items = new Map<string, Record<string, unknown>>();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input) => ({ Item: items.get(input.Key.pk) }));
  dynamo.on(PutCommand).callsFake((input) => {
    const existing = items.get(input.Item.pk);
    // putPending: never over an active signup.
    if (input.ConditionExpression && existing && existing.status !== 'pending') throw new ConditionalCheckFailedException({ message: 'active', $metadata: {} });
    items.set(input.Item.pk, input.Item);
    return {};
  });
  dynamo.on(DeleteCommand).callsFake((input) => {
    items.delete(input.Key.pk);
    return {};
  });
  dynamo.on(UpdateCommand).callsFake((input) => {
    const item: Record<string, unknown> = items.get(input.Key.pk) ?? { pk: input.Key.pk };
    if (input.Key.pk === 'COUNTER#waitlist') {
      const count = Number(item.count ?? 0);
      if (count >= capacity) throw new ConditionalCheckFailedException({ message: 'full', $metadata: {} });
      items.set(input.Key.pk, { ...item, count: count + 1 });
      return { Attributes: { count: count + 1 } };
    }
    if (input.ConditionExpression && !items.has(input.Key.pk)) throw new ConditionalCheckFailedException({ message: 'missing', $metadata: {} });
    items.set(input.Key.pk, { ...item, welcome: input.ExpressionAttributeValues[':state'] });
    return {};
  });
  return items;
}

const request = EarlySignupRequest.parse({ email: 'ada@example.com', firstName: 'Ada' });
const CALLER = { ip: '198.51.100.7' };
const T0 = new Date('2026-11-24T10:00:00.000Z');

/** Signup and confirmation over one table, with the emails sent kept. */
function world(capacity = 200, options: { now?: () => Date } = {}) {
  const items = table(capacity);
  const sent: Array<{ to: string; email: Email }> = [];
  const publish = jest.fn().mockResolvedValue(undefined);
  const once = inMemoryIdempotency();
  const now = options.now ?? (() => T0);
  const store = waitlistStore(doc, 'w');
  const signupDeps = {
    store,
    capacity,
    siteUrl: 'https://humanly.example/',
    send: async (to: string, email: Email) => void sent.push({ to, email }),
    limit: noRateLimit,
    once,
    now,
  };
  const confirmDeps = { store, capacity, publish, limit: noRateLimit, once, now };
  /** The token of the last confirmation email sent to `to`. */
  const tokenFor = (to: string) => {
    const mail = sent.filter((s) => s.to === to).at(-1);
    const token = mail?.email.text.match(/#confirm=([A-Za-z0-9_-]{43})/)?.[1];
    if (!token) throw new Error(`no confirmation link was sent to ${to}`);
    return token;
  };
  return { items, sent, publish, signupDeps, confirmDeps, tokenFor };
}

describe('signUp', () => {
  it('takes no place: stores a pending signup that expires, and emails a link whose token is stored only hashed', async () => {
    const w = world();
    expect(await signUp(w.signupDeps, request, CALLER)).toEqual({ success: true, confirmationSent: true });
    expect(w.items.get('COUNTER#waitlist')).toBeUndefined();
    expect(w.items.get('SIGNUP#ada@example.com')).toMatchObject({ status: 'pending', firstName: 'Ada', expiresAt: T0.getTime() / 1000 + 48 * 3600 });
    expect(w.items.get('SIGNUP#ada@example.com')).not.toHaveProperty('position');
    expect(w.items.get('SIGNUP#ada@example.com')).not.toHaveProperty('gsi1pk');
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0].email.text).toContain('https://humanly.example/thank-you?type=waitlist#confirm=');
    const token = w.tokenFor('ada@example.com');
    expect(w.items.has(`CONFIRM#${hashToken(token)}`)).toBe(true);
    expect(JSON.stringify([...w.items])).not.toContain(token);
    expect(w.publish).not.toHaveBeenCalled();
  });

  it('gives the same answer for a new, a pending and a confirmed address, and the link shows a confirmed one its place', async () => {
    const w = world();
    const fresh = () => ({ ...w.signupDeps, once: inMemoryIdempotency() });
    const answers = [await signUp(fresh(), request, CALLER)];
    answers.push(await signUp(fresh(), request, CALLER)); // pending
    await confirm(w.confirmDeps, { token: w.tokenFor('ada@example.com') }, CALLER);
    answers.push(await signUp(fresh(), request, CALLER)); // confirmed
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    // The confirmed address's new link shows its place and takes none.
    expect(await confirm(w.confirmDeps, { token: w.tokenFor('ada@example.com') }, CALLER)).toEqual({ success: true, position: 1, alreadySignedUp: true });
    expect(w.items.get('COUNTER#waitlist')?.count).toBe(1);
    expect(w.items.get('SIGNUP#ada@example.com')).toMatchObject({ status: 'active', position: 1 });
  });

  it('answers a filled honeypot like a success, storing and sending nothing', async () => {
    const w = world();
    const bot = EarlySignupRequest.parse({ email: 'victim@example.com', website: 'https://spam.example' });
    expect(await signUp(w.signupDeps, bot, CALLER)).toEqual(await signUp({ ...w.signupDeps, once: inMemoryIdempotency() }, request, CALLER));
    expect(w.items.has('SIGNUP#victim@example.com')).toBe(false);
    expect(w.sent.map((s) => s.to)).toEqual(['ada@example.com']);
  });

  it('refuses the 11th signup from one IP address in an hour with 429, before storing or sending', async () => {
    const w = world();
    const deps = { ...w.signupDeps, limit: inMemoryRateLimiter(() => T0) };
    for (let i = 0; i < 10; i++) await signUp(deps, EarlySignupRequest.parse({ email: `p${i}@example.com` }), CALLER);
    await expect(signUp(deps, EarlySignupRequest.parse({ email: 'p10@example.com' }), CALLER)).rejects.toMatchObject({ status: 429, message: WAITLIST_IP_HOURLY_MESSAGE });
    expect(w.items.has('SIGNUP#p10@example.com')).toBe(false);
    expect(w.sent).toHaveLength(10);
    // Another network is not affected.
    await expect(signUp(deps, EarlySignupRequest.parse({ email: 'p10@example.com' }), { ip: '203.0.113.9' })).resolves.toMatchObject({ success: true });
  });

  it('sends at most 3 confirmation emails a day to one address, whoever asks', async () => {
    const w = world();
    const limit = inMemoryRateLimiter(() => T0);
    for (let i = 0; i < 3; i++) await signUp({ ...w.signupDeps, limit, once: inMemoryIdempotency() }, request, { ip: `198.51.100.${i}` });
    await expect(signUp({ ...w.signupDeps, limit, once: inMemoryIdempotency() }, request, { ip: '198.51.100.99' })).rejects.toMatchObject({
      status: 429,
      message: WAITLIST_ADDRESS_MESSAGE,
    });
    expect(w.sent).toHaveLength(3);
  });

  it('sends one email for a double submit', async () => {
    const w = world();
    const answers = await Promise.allSettled([signUp(w.signupDeps, request, CALLER), signUp(w.signupDeps, request, CALLER)]);
    expect(answers.map((a) => a.status)).toContain('fulfilled');
    expect(w.sent).toHaveLength(1);
  });

  it('answers Waitlist is full once the places are taken, storing and sending nothing', async () => {
    const w = world(0);
    w.items.set('COUNTER#waitlist', { pk: 'COUNTER#waitlist', count: 0 });
    await expect(signUp(w.signupDeps, request, CALLER)).rejects.toMatchObject({ status: 409, message: 'Waitlist is full' });
    expect(w.items.has('SIGNUP#ada@example.com')).toBe(false);
    expect(w.sent).toHaveLength(0);
  });

  it('replays the first answer for the same Idempotency-Key and refuses the key with another body', async () => {
    const w = world();
    const first = await signUp(w.signupDeps, request, CALLER, 'key-1');
    expect(await signUp(w.signupDeps, request, CALLER, 'key-1')).toEqual(first);
    await expect(signUp(w.signupDeps, EarlySignupRequest.parse({ email: 'bob@example.com' }), CALLER, 'key-1')).rejects.toMatchObject({ status: 422 });
    expect(w.sent).toHaveLength(1);
  });
});

describe('confirm', () => {
  it('takes the place, announces it by place only, and uses the link up (a reload replays the answer)', async () => {
    const w = world();
    await signUp(w.signupDeps, request, CALLER);
    const token = w.tokenFor('ada@example.com');
    expect(await confirm(w.confirmDeps, { token }, CALLER)).toEqual({ success: true, position: 1, alreadySignedUp: false });
    expect(w.items.get('SIGNUP#ada@example.com')).toMatchObject({ status: 'active', position: 1, gsi1pk: 'WAITLIST', gsi1sk: 1, firstName: 'Ada', welcome: 'queued' });
    expect(w.items.get('SIGNUP#ada@example.com')).not.toHaveProperty('expiresAt');
    expect(w.items.get('PLACE#1')).toMatchObject({ email: 'ada@example.com' });
    expect(w.publish).toHaveBeenCalledTimes(1);
    const [type, detail] = w.publish.mock.calls[0];
    expect(type).toBe('Waitlist.SignedUp');
    expect(WaitlistSignedUpV2.parse(detail)).toEqual({ version: 2, position: 1, signedUpAt: T0.toISOString() });
    expect(JSON.stringify(detail)).not.toMatch(/ada|Ada/);
    expect(w.items.has(`CONFIRM#${hashToken(token)}`)).toBe(false);
    // The same link again (a reload) replays; once its record is gone, the link is used up.
    expect(await confirm(w.confirmDeps, { token }, CALLER)).toEqual({ success: true, position: 1, alreadySignedUp: false });
    await expect(confirm({ ...w.confirmDeps, once: inMemoryIdempotency() }, { token }, CALLER)).rejects.toMatchObject({ status: 404, message: WAITLIST_LINK_INVALID_MESSAGE });
    expect(w.items.get('COUNTER#waitlist')?.count).toBe(1);
  });

  it('refuses an unknown token and an expired link, taking no place', async () => {
    let now = T0;
    const w = world(200, { now: () => now });
    await signUp(w.signupDeps, request, CALLER);
    await expect(confirm(w.confirmDeps, ConfirmWaitlistRequest.parse({ token: 'x'.repeat(43) }), CALLER)).rejects.toMatchObject({ status: 404 });
    now = new Date(T0.getTime() + 48 * 3600 * 1000 + 1000);
    await expect(confirm(w.confirmDeps, { token: w.tokenFor('ada@example.com') }, CALLER)).rejects.toMatchObject({ status: 404, message: WAITLIST_LINK_INVALID_MESSAGE });
    expect(w.items.get('COUNTER#waitlist')).toBeUndefined();
  });

  it('takes one place for an address whose two links are both followed', async () => {
    const w = world();
    await signUp(w.signupDeps, request, CALLER);
    const first = w.tokenFor('ada@example.com');
    await signUp({ ...w.signupDeps, once: inMemoryIdempotency() }, request, CALLER);
    const second = w.tokenFor('ada@example.com');
    expect(second).not.toBe(first);
    const answers = await Promise.allSettled([confirm(w.confirmDeps, { token: first }, CALLER), confirm(w.confirmDeps, { token: second }, CALLER)]);
    expect(answers.some((a) => a.status === 'fulfilled')).toBe(true);
    expect(w.items.get('COUNTER#waitlist')?.count).toBe(1);
    expect(w.publish).toHaveBeenCalledTimes(1);
  });

  it('answers Waitlist is full when the last place went while the link waited', async () => {
    const w = world(1);
    await signUp(w.signupDeps, request, CALLER);
    await signUp(w.signupDeps, EarlySignupRequest.parse({ email: 'bob@example.com' }), CALLER);
    await confirm(w.confirmDeps, { token: w.tokenFor('bob@example.com') }, CALLER);
    await expect(confirm(w.confirmDeps, { token: w.tokenFor('ada@example.com') }, CALLER)).rejects.toMatchObject({ status: 409, message: 'Waitlist is full' });
    expect(w.items.get('SIGNUP#ada@example.com')).toMatchObject({ status: 'pending' });
  });

  it('keeps the place when the announcement fails, fails the call, and announces when the link is followed again', async () => {
    const w = world();
    w.publish.mockRejectedValueOnce(new Error('bus down'));
    await signUp(w.signupDeps, request, CALLER);
    const token = w.tokenFor('ada@example.com');
    await expect(confirm(w.confirmDeps, { token }, CALLER)).rejects.toThrow('bus down');
    expect(w.items.get('SIGNUP#ada@example.com')).toMatchObject({ position: 1, welcome: 'event-failed' });
    await expect(confirm({ ...w.confirmDeps, once: inMemoryIdempotency() }, { token }, CALLER)).resolves.toMatchObject({ position: 1 });
    expect(w.publish).toHaveBeenCalledTimes(2);
    expect(w.items.get('COUNTER#waitlist')?.count).toBe(1);
  });
});

describe('the welcome consumer', () => {
  it('reads the address and name of a v2 event (place only) from the table; v1 events still send', async () => {
    const w = world();
    await signUp(w.signupDeps, request, CALLER);
    await confirm(w.confirmDeps, { token: w.tokenFor('ada@example.com') }, CALLER);
    const send = jest.fn().mockResolvedValue(undefined);
    const deps = { store: waitlistStore(doc, 'w'), siteUrl: 'https://humanly.example', send, once: inMemoryIdempotency() };
    expect(await sendWelcome(deps, WaitlistSignedUp.parse(w.publish.mock.calls[0][1]))).toBe('sent');
    expect(send).toHaveBeenCalledWith('ada@example.com', expect.objectContaining({ subject: expect.stringContaining('#1') }));
    expect((send.mock.calls[0][1] as Email).text).toContain('Hi Ada,');
    // No signup at the fixture's places: nothing sent.
    expect(await sendWelcome(deps, WaitlistSignedUp.parse(fixtureV2))).toBe('skipped');
    expect(await sendWelcome(deps, WaitlistSignedUp.parse(fixtureV1))).toBe('skipped');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends once when recording the email as sent fails after it went out (a throttled write): the delivery does not fail and is not sent again', async () => {
    const w = world();
    await signUp(w.signupDeps, request, CALLER);
    await confirm(w.confirmDeps, { token: w.tokenFor('ada@example.com') }, CALLER);
    const send = jest.fn().mockResolvedValue(undefined);
    const deps = { store: waitlistStore(doc, 'w'), siteUrl: 'https://humanly.example', send, once: inMemoryIdempotency() };
    // The first write of `sent` is refused as DynamoDB refuses a throttled one; the table answers the rest.
    let refused = 0;
    dynamo.on(UpdateCommand, { ExpressionAttributeValues: { ':state': 'sent' } }).callsFake(async (input) => {
      if (refused++ === 0) throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ProvisionedThroughputExceededException' });
      w.items.set(input.Key.pk, { ...w.items.get(input.Key.pk), welcome: 'sent' });
      return {};
    });
    const event = WaitlistSignedUp.parse(w.publish.mock.calls[0][1]);
    expect(await sendWelcome(deps, event)).toBe('sent');
    // Refused once, then recorded.
    expect(refused).toBe(2);
    expect([...w.items.values()].find((i) => i.email === 'ada@example.com')?.welcome).toBe('sent');
    // Delivered again (EventBridge retries what failed): nothing more is sent.
    expect(await sendWelcome(deps, event)).toBe('skipped');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('the v2 fixture carries no address or name', () => {
    expect(Object.keys(WaitlistSignedUpV2.parse(fixtureV2)).sort()).toEqual(['position', 'signedUpAt', 'version']);
    expect(() => WaitlistSignedUpV2.parse({ ...fixtureV2, email: 'ada@example.com' })).toThrow();
  });
});
