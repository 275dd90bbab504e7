// Webhooks of predictions and trainings alike: signed the Standard Webhooks way with the secret
// `GET /v1/webhooks/default/secret` serves, only the events the create's filter asks for, and the
// `completed` one tried again while the receiver answers 5xx or nothing.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Timers, WebhookEvent } from './shared';

/** What a webhook is sent about: a prediction or a training. */
export interface WebhookSubject {
  id: string;
  webhook?: string;
  webhookEventsFilter: WebhookEvent[];
  /** Webhooks the receiver accepted (2xx), by event, in order. */
  webhooksDelivered: WebhookEvent[];
  /** Events a `lose-webhook` fault loses: never sent. */
  loseEvents: Set<WebhookEvent>;
}

export class WebhookSender {
  private readonly signer: Webhook;

  constructor(
    secret: string,
    private readonly retryDelaysMs: number[],
    private readonly timers: Timers,
    private readonly log: (line: string) => void,
  ) {
    this.signer = new Webhook(secret);
  }

  /** Sends one event with the subject as it is now (`body`); the attempts of one event keep its `webhook-id`. */
  send(subject: WebhookSubject, event: WebhookEvent, body: () => unknown): void {
    if (!subject.webhook || !subject.webhookEventsFilter.includes(event)) return;
    if (subject.loseEvents.has(event)) {
      this.log(`${subject.id}: ${event} webhook lost (fault)`);
      return;
    }
    const url = subject.webhook;
    const id = `msg_${randomBytes(16).toString('base64url')}`;
    const payload = JSON.stringify(body());
    const attempt = async (n: number) => {
      const now = new Date();
      let status = 0;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': this.signer.sign(id, now, payload),
          },
          body: payload,
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.body?.cancel();
      } catch (err) {
        this.log(`${subject.id}: ${event} webhook not delivered (${(err as Error).name})`);
      }
      if (status >= 200 && status < 300) {
        subject.webhooksDelivered.push(event);
        return;
      }
      this.log(`${subject.id}: ${event} webhook answered ${status || 'nothing'} (attempt ${n + 1})`);
      // Replicate retries only the final webhook; 4xx answers are not retried.
      if (event === 'completed' && (status === 0 || status >= 500) && n < this.retryDelaysMs.length) {
        this.timers.later(this.retryDelaysMs[n], () => void attempt(n + 1));
      }
    };
    void attempt(0);
  }
}
