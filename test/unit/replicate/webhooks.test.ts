import { Webhook } from 'standardwebhooks';
import { verifyReplicateWebhook, WebhookSignatureError } from '../../../functions/shared/replicate-webhooks';

const SECRET = `whsec_${Buffer.from('a test secret of enough length').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('somebody else entirely').toString('base64')}`;
const body = JSON.stringify({ id: 'p1', status: 'succeeded', output: ['http://files.test/p1/0.png'], error: null });

function signed(payload = body, secret = SECRET, at = new Date()) {
  const id = 'msg_1';
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, payload),
  };
}

const refusal = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe('verifyReplicateWebhook', () => {
  it('passes a valid webhook and answers its id and prediction', () => {
    expect(verifyReplicateWebhook(SECRET, signed(), body)).toEqual({
      webhookId: 'msg_1',
      prediction: { id: 'p1', status: 'succeeded', output: ['http://files.test/p1/0.png'], error: null },
    });
  });

  it('reads headers whatever their case', () => {
    const h = signed();
    const upper = { 'Webhook-Id': h['webhook-id'], 'Webhook-Timestamp': h['webhook-timestamp'], 'Webhook-Signature': h['webhook-signature'] };
    expect(verifyReplicateWebhook(SECRET, upper, body).webhookId).toBe('msg_1');
  });

  it('refuses a signature made with another secret', () => {
    const err = refusal(() => verifyReplicateWebhook(SECRET, signed(body, OTHER), body));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err).toMatchObject({ status: 401 });
  });

  it('refuses a body changed after signing', () => {
    const tampered = body.replace('succeeded', 'failed');
    expect(refusal(() => verifyReplicateWebhook(SECRET, signed(), tampered))).toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a timestamp older than 5 minutes, even with a correct signature', () => {
    const stale = new Date(Date.now() - 5 * 60_000 - 10_000);
    const err = refusal(() => verifyReplicateWebhook(SECRET, signed(body, SECRET, stale), body));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect((err as Error).message).toMatch(/too old/);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)('refuses a webhook without %s, naming it', (name) => {
    const headers: Record<string, string | undefined> = signed();
    delete headers[name];
    const err = refusal(() => verifyReplicateWebhook(SECRET, headers, body));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect((err as Error).message).toContain(name);
  });

  it('refuses a replayed signature under another webhook id', () => {
    const headers = { ...signed(), 'webhook-id': 'msg_2' };
    expect(refusal(() => verifyReplicateWebhook(SECRET, headers, body))).toBeInstanceOf(WebhookSignatureError);
  });

  it('answers 400 for a correctly signed body that is not a prediction', () => {
    const odd = JSON.stringify({ hello: 'world' });
    expect(refusal(() => verifyReplicateWebhook(SECRET, signed(odd), odd))).toMatchObject({ status: 400 });
  });
});
