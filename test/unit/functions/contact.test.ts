import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import fixture from '../../../events/fixtures/contact.request.json';
import eventFixture from '../../../events/fixtures/contact-message-received.v1.json';
import { ContactMessageReceivedV1, ContactRequest } from '../../../events/contact';
import { receiveMessage } from '../../../functions/contact/routes/send-contact-message/service';
import { contactAcknowledgementEmail, contactTeamEmail } from '../../../functions/contact/emails';
import { CONTACT_IP_HOURLY_MESSAGE } from '../../../events/contact-values';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { inMemoryRateLimiter, noRateLimit } from '../../../functions/shared/rate-limit';
import { messageStore } from '../../../functions/contact/store';
import { notifyContact } from '../../../functions/contact/triggers/contact-notify/service';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(doc);
beforeEach(() => {
  dynamo.reset();
  dynamo.onAnyCommand().resolves({});
});
jest.spyOn(console, 'error').mockImplementation(() => undefined);
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);

const message = {
  id: eventFixture.messageId,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  subject: 'Licensing\nBcc: victim@example.com',
  message: 'Hello <b>team</b>',
  page: '/contact',
  createdAt: '2026-11-22T10:00:00.000Z',
};

describe('ContactRequest', () => {
  it('trims the fields and lowercases the email (fixture)', () => {
    expect(ContactRequest.parse(fixture)).toEqual({ ...fixture, firstName: 'Ada', email: 'ada@example.com' });
    expect(ContactMessageReceivedV1.parse(eventFixture)).toEqual(eventFixture);
  });

  it('takes the page as a route, with or without its leading slash', () => {
    expect(ContactRequest.parse({ ...fixture, page: 'pre-launch-contact' }).page).toBe('/pre-launch-contact');
    expect(ContactRequest.parse({ ...fixture, page: '/founding-talent-contact' }).page).toBe('/founding-talent-contact');
    expect(ContactRequest.safeParse({ ...fixture, page: '/admin' }).success).toBe(false);
  });
});

describe('contact emails', () => {
  it('gives the team the whole message, escaped, with a one-line subject', () => {
    const email = contactTeamEmail(message, 'https://humanly.example/');
    expect(email.subject).toBe('[Contact] Licensing Bcc: victim@example.com (Ada Lovelace)');
    expect(email.text).toContain('From: Ada Lovelace <ada@example.com>');
    expect(email.text).toContain('Sent from: https://humanly.example/contact');
    expect(email.text).toContain('Hello <b>team</b>');
    expect(email.html).toContain('Hello &#60;b&#62;team&#60;/b&#62;');
  });

  it('acknowledges with the 24-hour response time and echoes nothing but the first name', () => {
    const email = contactAcknowledgementEmail({ firstName: 'Ada <img>' }, 'https://humanly.example');
    expect(email.text).toContain('Hi Ada <img>,');
    expect(email.text).toContain('within 24 hours');
    expect(email.html).not.toContain('<img>');
    expect(email.text).toContain('https://humanly.example/talent');
  });
});

const CALLER = { ip: '198.51.100.7' };

describe('receiveMessage', () => {
  const request = ContactRequest.parse(fixture);

  it('answers 429 naming the limit once an IP address has sent 10 messages in an hour, before storing anything', async () => {
    const limit = inMemoryRateLimiter();
    const publish = jest.fn().mockResolvedValue(undefined);
    const deps = { store: messageStore(doc, 'm'), once: inMemoryIdempotency(), limit, publish };
    // Each from a different sender, so the per-sender cap is not what stops them.
    for (let i = 0; i < 10; i++) await receiveMessage(deps, { ...request, email: `sender${i}@example.com` }, CALLER);
    const puts = dynamo.commandCalls(PutCommand).length;
    await expect(receiveMessage(deps, { ...request, email: 'another@example.com' }, CALLER)).rejects.toMatchObject({ status: 429, message: CONTACT_IP_HOURLY_MESSAGE });
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(puts);
    // Another network is not affected.
    await expect(receiveMessage(deps, { ...request, email: 'another@example.com' }, { ip: '203.0.113.9' })).resolves.toEqual({ received: true });
  });

  it('stores a new message and announces it by id only', async () => {
    const publish = jest.fn().mockResolvedValue(undefined);
    const out = await receiveMessage(
      { store: messageStore(doc, 'm'), once: inMemoryIdempotency(), limit: noRateLimit, publish, newId: () => eventFixture.messageId, now: () => new Date(eventFixture.receivedAt) },
      request,
      CALLER,
    );
    expect(out).toEqual({ received: true });
    expect(dynamo.commandCalls(PutCommand)[0].args[0].input.Item).toMatchObject({ pk: `MESSAGE#${eventFixture.messageId}`, status: 'new', email: 'ada@example.com' });
    expect(publish).toHaveBeenCalledWith('Contact.MessageReceived', eventFixture);
  });

  it('removes the message and fails when the event cannot be announced', async () => {
    const publish = jest.fn().mockRejectedValue(new Error('bus down'));
    await expect(receiveMessage({ store: messageStore(doc, 'm'), once: inMemoryIdempotency(), limit: noRateLimit, publish, newId: () => 'id-1' }, request, CALLER)).rejects.toThrow('bus down');
    expect(dynamo.commandCalls(DeleteCommand)[0].args[0].input.Key).toEqual({ pk: 'MESSAGE#id-1' });
  });

  it("gives the sender's daily count back when the message is not received, so the retry is not refused for it", async () => {
    const countChanges = () => dynamo.commandCalls(UpdateCommand).map((c) => c.args[0].input.UpdateExpression);
    const counted = 'SET #count = if_not_exists(#count, :zero) + :one, expiresAt = :expires';
    const given = 'SET #count = #count - :one';
    const deps = (publish: jest.Mock) => ({ store: messageStore(doc, 'm'), once: inMemoryIdempotency(), limit: noRateLimit, publish, newId: () => 'id-1' });

    // Not announced: removed, and its count given back.
    await expect(receiveMessage(deps(jest.fn().mockRejectedValue(new Error('bus down'))), request, CALLER)).rejects.toThrow('bus down');
    expect(countChanges()).toEqual([counted, given]);
    const release = dynamo.commandCalls(UpdateCommand)[1].args[0].input;
    expect(release).toMatchObject({ Key: dynamo.commandCalls(UpdateCommand)[0].args[0].input.Key, ConditionExpression: '#count > :zero' });

    // Not stored.
    dynamo.reset();
    dynamo.onAnyCommand().resolves({});
    dynamo.on(PutCommand).rejects(new Error('table unavailable'));
    await expect(receiveMessage(deps(jest.fn()), request, CALLER)).rejects.toThrow('table unavailable');
    expect(countChanges()).toEqual([counted, given]);

    // Not removed: the message is still there, so it still counts.
    dynamo.reset();
    dynamo.onAnyCommand().resolves({});
    dynamo.on(DeleteCommand).rejects(new Error('table unavailable'));
    await expect(receiveMessage(deps(jest.fn().mockRejectedValue(new Error('bus down'))), request, CALLER)).rejects.toThrow('bus down');
    expect(countChanges()).toEqual([counted]);

    // Received: counted once, nothing given back.
    dynamo.reset();
    dynamo.onAnyCommand().resolves({});
    await expect(receiveMessage(deps(jest.fn().mockResolvedValue(undefined)), request, CALLER)).resolves.toEqual({ received: true });
    expect(countChanges()).toEqual([counted]);
  });

  it('answers 429 once the sender has used up the day', async () => {
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    const publish = jest.fn();
    await expect(receiveMessage({ store: messageStore(doc, 'm'), once: inMemoryIdempotency(), limit: noRateLimit, publish }, request, CALLER)).rejects.toMatchObject({ status: 429 });
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
    expect(publish).not.toHaveBeenCalled();
  });
});

describe('notifyContact', () => {
  const deps = (send: jest.Mock, once = inMemoryIdempotency()) => ({ store: messageStore(doc, 'm'), once, teamEmail: 'team@h.example', siteUrl: 'https://h.example', send });
  const detail = ContactMessageReceivedV1.parse(eventFixture);

  it('emails the team (Reply-To the sender), then acknowledges the sender', async () => {
    dynamo.on(GetCommand).resolves({ Item: message });
    const send = jest.fn().mockResolvedValue('id');
    expect(await notifyContact(deps(send), detail)).toEqual({ team: 'sent', acknowledgement: 'sent' });
    expect(send.mock.calls.map((c) => [c[0], c[2]])).toEqual([
      ['team@h.example', 'ada@example.com'],
      ['ada@example.com', undefined],
    ]);
  });

  it('records a failed send on the message and rethrows for a retry, without acknowledging yet', async () => {
    dynamo.on(GetCommand).resolves({ Item: message });
    const send = jest.fn().mockRejectedValue(new Error('SES throttled'));
    await expect(notifyContact(deps(send), detail)).rejects.toThrow('SES throttled');
    expect(send).toHaveBeenCalledTimes(1);
    const failed = dynamo.commandCalls(UpdateCommand).map((c) => c.args[0].input).find((i) => i.ExpressionAttributeValues?.[':state'] === 'failed');
    expect(failed).toMatchObject({ ExpressionAttributeNames: { '#state': 'teamEmail', '#error': 'teamEmailError' } });
    expect(failed?.ExpressionAttributeValues?.[':error']).toBe('SES throttled');
  });

  it('skips an email already sent when the event is delivered again, and sends the one that failed', async () => {
    dynamo.on(GetCommand).resolves({ Item: message });
    const once = inMemoryIdempotency();
    const send = jest.fn().mockResolvedValueOnce('team-id').mockRejectedValueOnce(new Error('SES throttled')).mockResolvedValue('ack-id');
    await expect(notifyContact(deps(send, once), detail)).rejects.toThrow('SES throttled');
    expect(await notifyContact(deps(send, once), detail)).toEqual({ team: 'skipped', acknowledgement: 'sent' });
    expect(send.mock.calls.map((c) => c[0])).toEqual(['team@h.example', 'ada@example.com', 'ada@example.com']);
    expect(await notifyContact(deps(send, once), detail)).toEqual({ team: 'skipped', acknowledgement: 'skipped' });
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('sends nothing for a message that no longer exists', async () => {
    dynamo.on(GetCommand).resolves({});
    const send = jest.fn();
    expect(await notifyContact(deps(send), detail)).toEqual({ team: 'skipped', acknowledgement: 'skipped' });
    expect(send).not.toHaveBeenCalled();
  });
});
