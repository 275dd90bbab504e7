import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { itemsWithPrefix, useTwin } from '../../support/twin';
import { freshLoopback, postJsonFrom } from '../../support/waitlist';

const TEAM = 'team@studio.test';
const twin = useTwin({ context: { contactEmail: TEAM } });
const messages = () => itemsWithPrefix(twin(), 'ContactMessagesTable', 'MESSAGE#');
const emailsTo = async (address: string) => (await twin().emails()).filter((m) => m.to.includes(address));
// Each message from a network of its own: the per-IP limits are not what these tests are about.
const post = (body: unknown, headers?: Record<string, string>) => postJsonFrom(freshLoopback(), `${twin().urls.api}/contact`, body, headers);

let counter = 0;
/** A valid message from a new sender each time (the per-sender daily cap stays out of the way). */
const aMessage = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Noor',
  lastName: 'Haddad',
  email: `noor.${++counter}@agency.test`,
  subject: 'Freezing a likeness',
  message: 'We would like exclusive rights to Maya Chen for a six-month campaign. What are the terms?',
  ...overrides,
});

describe('contact messages through the API', () => {
  it('stores the message, emails the team and acknowledges the sender', async () => {
    const res = await post(aMessage({ firstName: '  Noor ', email: '  Noor.Haddad@Agency.TEST ', page: '/founding-talent-contact' }));
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ received: true });
    await twin().idle();

    const [item] = (await messages()).filter((m) => m.email === 'noor.haddad@agency.test');
    expect(item).toMatchObject({
      status: 'new',
      firstName: 'Noor',
      lastName: 'Haddad',
      subject: 'Freezing a likeness',
      page: '/founding-talent-contact',
      teamEmail: 'sent',
      ackEmail: 'sent',
    });
    expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(item.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const team = await emailsTo(TEAM);
    expect(team).toHaveLength(1);
    expect(team[0].subject).toContain('Freezing a likeness');
    expect(team[0].text).toContain('exclusive rights to Maya Chen');
    expect(team[0].text).toContain('noor.haddad@agency.test');
    expect(team[0].text).toContain('/founding-talent-contact');
    expect(team[0].replyTo).toEqual(['noor.haddad@agency.test']);

    const ack = await emailsTo('noor.haddad@agency.test');
    expect(ack).toHaveLength(1);
    expect(ack[0].text).toContain('Hi Noor,');
    expect(ack[0].text).toContain('within 24 hours');
    expect(ack[0].text).not.toContain('exclusive rights');
  });

  it('sends no second email when the event is delivered again', async () => {
    const sender = aMessage();
    expect((await post(sender)).status).toBe(202);
    await twin().idle();
    const [item] = (await messages()).filter((m) => m.email === sender.email);
    const teamBefore = (await emailsTo(TEAM)).length;

    const events = new EventBridgeClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    const detail = { version: 1, messageId: item.id, receivedAt: item.createdAt };
    await events.send(
      new PutEventsCommand({
        Entries: [{ EventBusName: twin().physicalName('EventsBus'), Source: 'humanly.marketplace', DetailType: 'Contact.MessageReceived', Detail: JSON.stringify(detail) }],
      }),
    );
    await twin().idle();
    expect(await emailsTo(sender.email)).toHaveLength(1);
    expect(await emailsTo(TEAM)).toHaveLength(teamBefore);
  });

  it('stores and emails once for a repeat with the same Idempotency-Key, and twice for a new key (as without one)', async () => {
    const sender = aMessage();
    const first = await post(sender, { 'Idempotency-Key': `contact-${sender.email}` });
    const again = await post(sender, { 'Idempotency-Key': `contact-${sender.email}` });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.json).toEqual(first.json);
    await twin().idle();
    expect((await messages()).filter((m) => m.email === sender.email)).toHaveLength(1);
    expect(await emailsTo(sender.email)).toHaveLength(1);

    expect((await post(sender, { 'Idempotency-Key': `other-${sender.email}` })).status).toBe(202);
    await twin().idle();
    expect((await messages()).filter((m) => m.email === sender.email)).toHaveLength(2);
    expect(await emailsTo(sender.email)).toHaveLength(2);
  });

  it('takes at most 5 messages a day from one sender', async () => {
    const email = 'busy.sender@agency.test';
    for (let i = 0; i < 5; i++) expect((await post(aMessage({ email, subject: `Question ${i + 1}` }))).status).toBe(202);
    const sixth = await post(aMessage({ email, subject: 'Question 6' }));
    expect(sixth.status).toBe(429);
    expect(sixth.json.error).toMatch(/already sent us 5 messages today/);
    await twin().idle();
    expect((await messages()).filter((m) => m.email === email)).toHaveLength(5);
    expect(await emailsTo(email)).toHaveLength(5);
  });
});

describe('bad input on the contact API', () => {
  const cases: Array<[string, unknown, Record<string, RegExp>]> = [
    ['an empty object', {}, { firstName: /firstName is required/, lastName: /lastName is required/, email: /email is required/, subject: /subject is required/, message: /message is required/ }],
    ['a blank first name', aMessage({ firstName: '   ' }), { firstName: /firstName is required/ }],
    ['an invalid email', aMessage({ email: 'not an email' }), { email: /email must be a valid email address/ }],
    ['a number for the subject', aMessage({ subject: 42 }), { subject: /subject must be a string/ }],
    ['an over-long last name', aMessage({ lastName: 'x'.repeat(101) }), { lastName: /at most 100 characters/ }],
    ['an over-long subject', aMessage({ subject: 'x'.repeat(201) }), { subject: /at most 200 characters/ }],
    ['an over-long message', aMessage({ message: 'x'.repeat(5001) }), { message: /at most 5000 characters/ }],
    ['an unknown page', aMessage({ page: 'admin' }), { page: /page must be one of \/contact, \/pre-launch-contact, \/founding-talent-contact/ }],
    ['an unknown field', aMessage({ phone: '555' }), { phone: /phone is not a field/ }],
  ];

  it.each(cases.map(([name, body, fields]) => ({ name, body, fields })))('refuses $name with 400 and field errors, storing nothing', async ({ body, fields }) => {
    const before = await messages();
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(typeof res.json.error).toBe('string');
    expect(Object.keys(res.json.fields).sort()).toEqual(Object.keys(fields).sort());
    for (const [field, message] of Object.entries(fields)) expect(res.json.fields[field]).toMatch(message);
    await twin().idle();
    expect(await messages()).toEqual(before);
  });

  it('refuses a body over 16 KB', async () => {
    const res = await post(aMessage({ message: 'x'.repeat(17 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/too large/);
  });
});
