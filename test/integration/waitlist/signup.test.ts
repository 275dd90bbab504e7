import { PutEventsCommand, EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { itemsWithPrefix, postJson, useTwin } from '../../support/twin';

// A twin of its own: the first signup's position is 1.
const twin = useTwin({ own: true });
const signups = () => itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#');
const emailsTo = async (address: string) => (await twin().emails()).filter((m) => m.to.includes(address));

describe('early-access waitlist through the API', () => {
  it('stores one signup and sends one welcome email; a repeat stores and sends nothing more', async () => {
    const api = twin().urls.api;
    const first = await postJson(`${api}/early-signup`, {
      email: '  Maya.Creator@Example.com ',
      firstName: 'Maya',
      signupType: 'freelancer-creator',
      newsletter: false,
      terms: true,
    });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, position: 1, alreadySignedUp: false });
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
    const mail = await emailsTo('maya.creator@example.com');
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('#1');
    expect(mail[0].text ?? mail[0].html).toContain('Hi Maya');

    const repeat = await postJson(`${api}/early-signup`, { email: 'MAYA.creator@example.com' });
    expect(repeat.status).toBe(200);
    expect(repeat.json).toEqual({ success: true, position: 1, alreadySignedUp: true });
    await twin().idle();
    items = await signups();
    expect(items).toHaveLength(1);
    expect(await emailsTo('maya.creator@example.com')).toHaveLength(1);
  });

  it('serves the original backend path with a bare {email} body', async () => {
    const res = await postJson(`${twin().urls.api}/functions/v1/early-signup`, { email: 'legacy@client.io' });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    await twin().idle();
    const [item] = (await signups()).filter((i) => i.email === 'legacy@client.io');
    expect(item.newsletter).toBe(true);
    expect(await emailsTo('legacy@client.io')).toHaveLength(1);
  });

  it('sends the welcome email once even when the event is delivered twice', async () => {
    const res = await postJson(`${twin().urls.api}/early-signup`, { email: 'twice@example.com' });
    await twin().idle();
    const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    const detail = { version: 1, email: 'twice@example.com', position: res.json.position, newsletter: true, signedUpAt: new Date().toISOString() };
    await events.send(
      new PutEventsCommand({
        Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: 'humanly.marketplace', DetailType: 'Waitlist.SignedUp', Detail: JSON.stringify(detail) }],
      }),
    );
    await twin().idle();
    expect(await emailsTo('twice@example.com')).toHaveLength(1);
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
  it('answers a repeat with the same key as it answered the first, storing and sending nothing more', async () => {
    const api = twin().urls.api;
    const body = { email: 'keyed@example.com', firstName: 'Kai' };
    const first = await postJson(`${api}/early-signup`, body, { 'Idempotency-Key': 'signup-attempt-1' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ success: true, alreadySignedUp: false });
    const again = await postJson(`${api}/early-signup`, body, { 'Idempotency-Key': 'signup-attempt-1' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    await twin().idle();
    expect((await signups()).filter((i) => i.email === 'keyed@example.com')).toHaveLength(1);
    expect(await emailsTo('keyed@example.com')).toHaveLength(1);
  });

  it('treats a new key with the same email as a repeat signup, as without a key', async () => {
    const api = twin().urls.api;
    const body = { email: 'rekeyed@example.com' };
    const first = await postJson(`${api}/early-signup`, body, { 'Idempotency-Key': 'attempt-a' });
    const second = await postJson(`${api}/early-signup`, body, { 'Idempotency-Key': 'attempt-b' });
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ success: true, position: first.json.position, alreadySignedUp: true });
    await twin().idle();
    expect((await signups()).filter((i) => i.email === 'rekeyed@example.com')).toHaveLength(1);
    expect(await emailsTo('rekeyed@example.com')).toHaveLength(1);
  });

  it('refuses a key reused with a different body, and a malformed key', async () => {
    const api = twin().urls.api;
    await postJson(`${api}/early-signup`, { email: 'reuse1@example.com' }, { 'Idempotency-Key': 'reused-key' });
    const reused = await postJson(`${api}/early-signup`, { email: 'reuse2@example.com' }, { 'Idempotency-Key': 'reused-key' });
    expect(reused.status).toBe(422);
    expect(reused.json.error).toMatch(/Idempotency-Key/);
    expect((await signups()).filter((i) => i.email === 'reuse2@example.com')).toHaveLength(0);
    const malformed = await postJson(`${api}/early-signup`, { email: 'reuse3@example.com' }, { 'Idempotency-Key': 'x'.repeat(256) });
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
