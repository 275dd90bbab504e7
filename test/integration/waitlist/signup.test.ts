import { PutEventsCommand, EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { WAITLIST_IP_HOURLY_MESSAGE, WAITLIST_LINK_INVALID_MESSAGE } from '../../../events/waitlist-values';
import { confirmLatest, confirmationLink, confirmationTokens, freshLoopback, joinWaitlist, postJsonFrom } from '../../support/waitlist';
import { eventually } from '../../support/eventually';
import { documentClient, itemsWithPrefix, postJson, useTwin } from '../../support/twin';

// A twin of its own: the first signup's position is 1.
const twin = useTwin({ own: true });
const signups = () => itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#');
const emailsTo = async (address: string) => (await twin().emails()).filter((m) => m.to.includes(address));
const counter = async () =>
  Number(
    (await documentClient(twin()).send(new GetCommand({ TableName: twin().physicalName('WaitlistTable'), Key: { pk: 'COUNTER#waitlist' }, ConsistentRead: true }))).Item
      ?.count ?? 0,
  );

/**
 * Asks to join with an address until the answer is no replay of the one before it (the repeat
 * window is a second, counted in whole seconds): until a confirmation link beyond the `links`
 * already mailed arrives, or the signup is refused.
 */
async function askUntilNewLink(email: string, links: number) {
  return eventually(
    async () => {
      const res = await postJsonFrom(freshLoopback(), `${twin().urls.api}/early-signup`, { email });
      if (res.status !== 200) return res;
      return (await confirmationTokens(twin(), email.toLowerCase())).length > links && res;
    },
    { timeoutMs: 10_000, maxIntervalMs: 500, what: `a new confirmation link to ${email}` },
  );
}

describe('early-access waitlist through the API', () => {
  it('takes no place until the emailed link is followed; then stores one signup and sends one welcome email', async () => {
    const api = twin().urls.api;
    const ip = freshLoopback();
    const first = await postJsonFrom(ip, `${api}/early-signup`, {
      email: '  Maya.Creator@Example.com ',
      firstName: 'Maya',
      signupType: 'freelancer-creator',
      newsletter: false,
      terms: true,
    });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, confirmationSent: true });
    await twin().idle();
    expect((await signups())[0]).toMatchObject({ email: 'maya.creator@example.com', status: 'pending' });
    expect((await signups())[0].position).toBeUndefined();
    // The confirmation email, with a link to the site's thank-you page (token in the fragment).
    const [confirmation] = await emailsTo('maya.creator@example.com');
    expect(confirmation.subject).toContain('Confirm your place');
    expect(await confirmationLink(twin(), 'maya.creator@example.com')).toMatch(new RegExp(`^${twin().urls.web}/thank-you\\?type=waitlist#confirm=`));
    // The token is stored only as its hash.
    const [token] = await confirmationTokens(twin(), 'maya.creator@example.com');
    expect(JSON.stringify(await itemsWithPrefix(twin(), 'WaitlistTable', ''))).not.toContain(token);

    const confirmed = await postJsonFrom(ip, `${api}/confirm-waitlist`, { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toEqual({ success: true, position: 1, alreadySignedUp: false });
    await twin().idle();

    let items = await signups();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      email: 'maya.creator@example.com',
      firstName: 'Maya',
      signupType: 'freelancer-creator',
      newsletter: false,
      position: 1,
      status: 'active',
      welcome: 'sent',
    });
    expect(items[0].expiresAt).toBeUndefined();
    const welcome = (await emailsTo('maya.creator@example.com')).filter((m) => m.subject.includes('#1'));
    expect(welcome).toHaveLength(1);
    expect(welcome[0].text ?? welcome[0].html).toContain('Hi Maya');
    // The event on the bus named the place only.
    const announced = (await twin().deliveries()).map((d) => JSON.stringify(d)).filter((d) => d.includes('Waitlist.SignedUp'));
    expect(announced.length).toBeGreaterThan(0);
    for (const d of announced) expect(d).not.toMatch(/maya/i);

    // Asking again: the same answer; once past the window in which a repeat replays the first
    // answer (up to two seconds), one more link that shows the place, no second place or welcome.
    const links = (await confirmationTokens(twin(), 'maya.creator@example.com')).length;
    const repeat = await askUntilNewLink('MAYA.creator@example.com', links);
    expect(repeat.json).toEqual(first.json);
    expect(await confirmLatest(twin(), 'maya.creator@example.com')).toMatchObject({ status: 200, json: { position: 1, alreadySignedUp: true } });
    await twin().idle();
    items = await signups();
    expect(items).toHaveLength(1);
    expect((await emailsTo('maya.creator@example.com')).filter((m) => m.subject.includes('#1'))).toHaveLength(1);
  }, 30_000);

  it('refuses a used, unknown or malformed link with a message naming it, taking no place', async () => {
    const api = twin().urls.api;
    await postJsonFrom(freshLoopback(), `${api}/early-signup`, { email: 'used.link@example.com' });
    const [token] = await confirmationTokens(twin(), 'used.link@example.com');
    expect((await postJsonFrom(freshLoopback(), `${api}/confirm-waitlist`, { token })).status).toBe(200);
    const count = await counter();
    const unknown = await postJsonFrom(freshLoopback(), `${api}/confirm-waitlist`, { token: 'A'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe(WAITLIST_LINK_INVALID_MESSAGE);
    const malformed = await postJsonFrom(freshLoopback(), `${api}/confirm-waitlist`, { token: 'short' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toMatch(/token must be/);
    expect(await counter()).toBe(count);
  });

  it('answers a filled honeypot like a signup, storing and sending nothing', async () => {
    const res = await postJsonFrom(freshLoopback(), `${twin().urls.api}/early-signup`, { email: 'honeypot.victim@example.com', website: 'http://spam.example' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, confirmationSent: true });
    await twin().idle();
    expect((await signups()).filter((i) => i.email === 'honeypot.victim@example.com')).toHaveLength(0);
    expect(await emailsTo('honeypot.victim@example.com')).toHaveLength(0);
  });

  it('refuses the 11th signup from one IP address in an hour, while another address signs up', async () => {
    const api = twin().urls.api;
    const ip = freshLoopback();
    for (let i = 0; i < 10; i++) expect((await postJsonFrom(ip, `${api}/early-signup`, { email: `same.network${i}@example.com` })).status).toBe(200);
    const refused = await postJsonFrom(ip, `${api}/early-signup`, { email: 'same.network10@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe(WAITLIST_IP_HOURLY_MESSAGE);
    expect(await emailsTo('same.network10@example.com')).toHaveLength(0);
    expect((await postJsonFrom(freshLoopback(), `${api}/early-signup`, { email: 'same.network10@example.com' })).status).toBe(200);
  });

  it('mails one address at most 3 confirmation emails a day, whoever asks', async () => {
    const api = twin().urls.api;
    const statuses: number[] = [];
    statuses.push((await postJsonFrom(freshLoopback(), `${api}/early-signup`, { email: 'flooded@example.com' })).status);
    // Each repeat asked again until it is past the window in which it replays the answer before it.
    for (let i = 1; i < 4; i++) statuses.push((await askUntilNewLink('flooded@example.com', i)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses[3]).toBe(429);
    expect(await emailsTo('flooded@example.com')).toHaveLength(3);
  }, 30_000);

  it('serves the original backend path with a bare {email} body', async () => {
    const res = await postJsonFrom(freshLoopback(), `${twin().urls.api}/functions/v1/early-signup`, { email: 'legacy@client.io' });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    await confirmLatest(twin(), 'legacy@client.io');
    await twin().idle();
    const [item] = (await signups()).filter((i) => i.email === 'legacy@client.io');
    expect(item).toMatchObject({ status: 'active', newsletter: true });
  });

  it('sends the welcome email once even when the event is delivered twice', async () => {
    const position = await joinWaitlist(twin(), { email: 'twice@example.com' });
    await twin().idle();
    const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    const detail = { version: 2, position, signedUpAt: new Date().toISOString() };
    await events.send(
      new PutEventsCommand({
        Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: 'humanly.marketplace', DetailType: 'Waitlist.SignedUp', Detail: JSON.stringify(detail) }],
      }),
    );
    await twin().idle();
    expect((await emailsTo('twice@example.com')).filter((m) => m.subject.includes(`#${position}`))).toHaveLength(1);
  });

  it('answers CORS preflights from the site and not from other origins', async () => {
    const preflight = (origin: string) =>
      fetch(`${twin().urls.api}/early-signup`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const ok = await preflight(twin().urls.web);
    expect(ok.headers.get('access-control-allow-origin')).toBe(twin().urls.web);
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('Idempotency-Key on the signup API', () => {
  const post = (body: object, key: string) => postJsonFrom(freshLoopback(), `${twin().urls.api}/early-signup`, body, { 'Idempotency-Key': key });

  it('answers a repeat with the same key as it answered the first, storing and sending nothing more', async () => {
    const body = { email: 'keyed@example.com', firstName: 'Kai' };
    const first = await post(body, 'signup-attempt-1');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, confirmationSent: true });
    const again = await post(body, 'signup-attempt-1');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    await twin().idle();
    expect((await signups()).filter((i) => i.email === 'keyed@example.com')).toHaveLength(1);
    expect(await emailsTo('keyed@example.com')).toHaveLength(1);
  });

  it('refuses a key reused with a different body, and a malformed key', async () => {
    await post({ email: 'reuse1@example.com' }, 'reused-key');
    const reused = await post({ email: 'reuse2@example.com' }, 'reused-key');
    expect(reused.status).toBe(422);
    expect(reused.json.error).toMatch(/Idempotency-Key/);
    expect((await signups()).filter((i) => i.email === 'reuse2@example.com')).toHaveLength(0);
    const malformed = await post({ email: 'reuse3@example.com' }, 'x'.repeat(256));
    expect(malformed.status).toBe(400);
  });

  it('lets the site send the header across origins', async () => {
    const preflight = await fetch(`${twin().urls.api}/early-signup`, {
      method: 'OPTIONS',
      headers: { origin: twin().urls.web, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(twin().urls.web);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
  });
});

describe('bad input on the signup API', () => {
  const cases: Array<[string, string | object, RegExp, Record<string, string>?]> = [
    ['malformed JSON', '{"email": "a@b.co"', /not valid JSON/],
    ['an empty body', '', /empty/],
    ['a missing email', { firstName: 'Ann' }, /email is required/],
    ['an invalid email', { email: 'not an email' }, /valid email address/],
    ['an over-long email', { email: `${'a'.repeat(250)}@b.co` }, /at most 254/],
    ['a 1 MB body', { email: 'big@body.io', firstName: 'x'.repeat(1024 * 1024) }, /too large/],
    ['a number for the email', { email: 12345 }, /email must be a string/],
    ['a string for newsletter', { email: 'a@b.co', newsletter: 'yes' }, /newsletter must be true or false/],
    ['an unknown field', { email: 'a@b.co', role: 'admin' }, /role is not a field/],
    ['an unknown signup type', { email: 'a@b.co', signupType: 'robot' }, /signupType must be one of/],
    ['terms declined', { email: 'a@b.co', terms: false }, /terms must be accepted/],
    ['a form-encoded body', 'email=a%40b.co', /as JSON/, { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a JSON array', '[{"email":"a@b.co"}]', /JSON object/],
  ];

  // Rows as objects: jest would take a missing fourth array element for a done callback.
  it.each(cases.map(([name, body, message, headers]) => ({ name, body, message, headers })))(
    'refuses $name with a 4xx naming the problem and stores nothing',
    async ({ body, message, headers }) => {
    const before = await signups();
    const res = await postJson(`${twin().urls.api}/early-signup`, body, headers);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.error).toMatch(message);
    expect(await signups()).toEqual(before);
    },
  );
});
