import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { UnauthorizedError, ValidationError } from './errors';
import { type Prediction, toPrediction } from './replicate';

/**
 * Replicate's webhooks follow Standard Webhooks: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (HMAC-SHA256 of `id.timestamp.body` with the account's `whsec_` secret).
 * They are verified with the `standardwebhooks` package, which compares in constant time and
 * refuses a timestamp more than 5 minutes from now; the `replicate` package's own validator
 * does neither.
 */
export class WebhookSignatureError extends UnauthorizedError {
  constructor(reason: string) {
    super(`Webhook signature is not valid: ${reason}`);
  }
}

const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** Verifies with `standardwebhooks` (timing-safe, 5-minute timestamp tolerance). Answers the
 *  webhook id (for replay guards) and the prediction it carries. */
export function verifyReplicateWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  rawBody: string,
): { webhookId: string; prediction: Prediction } {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') lower[name.toLowerCase()] = value;
  }
  const missing = HEADERS.filter((h) => !lower[h]);
  if (missing.length > 0) throw new WebhookSignatureError(`missing ${missing.join(', ')}`);

  const verifier = new Webhook(secret);
  let payload: unknown;
  try {
    payload = verifier.verify(rawBody, {
      'webhook-id': lower['webhook-id'],
      'webhook-timestamp': lower['webhook-timestamp'],
      'webhook-signature': lower['webhook-signature'],
    });
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw new WebhookSignatureError(err.message.toLowerCase());
    // The signature matched but the body is not JSON.
    if (err instanceof SyntaxError) throw new ValidationError('Webhook body is not a prediction');
    throw err;
  }
  let prediction: Prediction;
  try {
    prediction = toPrediction(payload);
  } catch {
    throw new ValidationError('Webhook body is not a prediction');
  }
  return { webhookId: lower['webhook-id'], prediction };
}
