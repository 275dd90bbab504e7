// One call of the Stripe emulator's API, as Stripe takes it: the secret key (Bearer or Basic),
// the `Stripe-Account` header, API faults, form-encoded parameters, `Idempotency-Key` replay,
// the route's answer, and Stripe's error shape with a `request-id`.
import type * as http from 'node:http';
import type { Accounts } from './accounts';
import type { Api } from './api';
import { parseForm, type Params, Reader, StripeApiError } from './form';
import { readBody, sendJson } from './http';
import { newId } from './objects';
import type { Store } from './store';
import type { Webhooks } from './webhooks';

/** Stripe keeps an idempotent result for at least 24 hours. */
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
const MAX_IDEMPOTENCY_KEY = 255;

interface Saved {
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  at: number;
}

/** The key of `Authorization: Bearer <key>` or of Basic auth (the key as the user name, as `curl -u sk_test_...:` sends it). */
function keyOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic) return Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  return undefined;
}

const redact = (key: string) => `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

export interface RequestsDeps {
  secretKey: string;
  publishableKey: string;
  api: Api;
  store: Store;
  webhooks: Webhooks;
  accounts: Accounts;
  log: (line: string) => void;
}

/** What a call is, once it is let in. */
interface Call {
  key: string;
  onAccount: string | null;
  params: Params;
  idemKey: string | undefined;
}

export class Requests {
  private readonly saved = new Map<string, Saved>();
  private readonly inFlight = new Set<string>();

  constructor(private readonly d: RequestsDeps) {}

  /** One API call: auth, faults, idempotency, the route, Stripe's error shape. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<void> {
    const requestId = newId('req', 14);
    const fail = (err: StripeApiError) => sendJson(res, err.status, JSON.stringify(err.body(requestId), null, 2), { 'request-id': requestId, ...err.headers });
    let call: Call;
    try {
      call = await this.admit(req, url, method);
    } catch (err) {
      if (err instanceof StripeApiError) return fail(err);
      throw err;
    }
    const { idemKey } = call;
    const slot = `${call.key}\n${idemKey}`;
    const fingerprint = `${method} ${url.pathname} ${call.onAccount ?? ''}\n${JSON.stringify(call.params)}`;
    if (idemKey !== undefined) {
      const prior = this.saved.get(slot);
      if (prior && Date.now() - prior.at < IDEMPOTENCY_TTL_MS) {
        if (prior.fingerprint !== fingerprint) {
          return fail(
            new StripeApiError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
            ),
          );
        }
        this.d.log(`${method} ${url.pathname}: replayed for Idempotency-Key ${idemKey}`);
        return sendJson(res, prior.status, prior.body, { 'request-id': requestId, 'idempotency-key': idemKey, 'idempotent-replayed': 'true', 'original-request': prior.requestId });
      }
      if (this.inFlight.has(slot)) {
        return fail(
          new StripeApiError(409, 'idempotency_error', 'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through). Please try again later.'),
        );
      }
      this.inFlight.add(slot);
    }
    let answer: { status: number; body: string; afterExecution: boolean };
    try {
      answer = this.run(method, url, call, requestId);
    } finally {
      if (idemKey !== undefined) this.inFlight.delete(slot);
    }
    const { status, body, afterExecution } = answer;
    // Stripe saves the result once the call ran: successes, card errors, server errors and the
    // errors of a call that had begun its work (a transfer refused for the balance or its
    // destination); a request refused as invalid saved nothing, and can be sent again with the
    // same key.
    if (idemKey !== undefined && (status < 400 || status === 402 || status >= 500 || afterExecution)) this.saved.set(slot, { fingerprint, status, body, requestId, at: Date.now() });
    if (this.d.webhooks.takeApiFault(['lose-answer'])) {
      this.d.log(`${method} ${url.pathname}: the answer is lost (fault)`);
      req.socket.destroy();
      return;
    }
    sendJson(res, status, body, { 'request-id': requestId, ...(idemKey !== undefined && { 'idempotency-key': idemKey }) });
  }

  /**
   * A file's contents (`GET /v1/files/:id/contents`, the path files.stripe.com serves them on):
   * the secret key as for any call, then the bytes; Stripe's error shape otherwise.
   */
  download(req: http.IncomingMessage, res: http.ServerResponse, contents: () => { bytes: Buffer; contentType: string }): void {
    const requestId = newId('req', 14);
    try {
      this.authenticate(req.headers.authorization);
      const { bytes, contentType } = contents();
      res.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.length), 'cache-control': 'no-store', 'request-id': requestId }).end(bytes);
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      sendJson(res, err.status, JSON.stringify(err.body(requestId), null, 2), { 'request-id': requestId });
    }
  }

  /** The key, the connected account, the API faults and the parameters; throws Stripe's error for a call refused before it runs. */
  private async admit(req: http.IncomingMessage, url: URL, method: string): Promise<Call> {
    const key = this.authenticate(req.headers.authorization);
    const onAccount = (req.headers['stripe-account'] as string | undefined) || null;
    if (onAccount) this.d.accounts.requireConnected(onAccount, redact(key));
    const fault = this.d.webhooks.takeApiFault(['http-5xx', 'http-429']);
    if (fault === 'http-5xx') throw new StripeApiError(500, 'api_error', 'An unknown error occurred (emulated).', {}, { 'stripe-should-retry': 'true' });
    if (fault === 'http-429') {
      throw new StripeApiError(429, 'invalid_request_error', 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', { code: 'rate_limit' });
    }
    const body = method === 'POST' || method === 'DELETE' ? await readBody(req) : '';
    const params = { ...parseForm(url.search.slice(1)), ...parseForm(body) };
    const idemKey = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    if (idemKey !== undefined && (idemKey.length > MAX_IDEMPOTENCY_KEY || idemKey === '')) {
      throw new StripeApiError(400, 'invalid_request_error', `Idempotency-Key must be between 1 and ${MAX_IDEMPOTENCY_KEY} characters long.`, { param: 'Idempotency-Key' });
    }
    return { key, onAccount, params, idemKey };
  }

  /** The secret key of the Authorization header; Stripe's 401 or 403 for none, a publishable key or another key. */
  private authenticate(authorization: string | undefined): string {
    const key = keyOf(authorization);
    if (!key) {
      throw new StripeApiError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      );
    }
    if (key === this.d.publishableKey) {
      throw new StripeApiError(
        403,
        'invalid_request_error',
        'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
      );
    }
    if (key !== this.d.secretKey) throw new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${redact(key)}`, { code: 'api_key_invalid' });
    return key;
  }

  /** The route's answer, or its error in Stripe's shape (an unexpected one as a 500). */
  private run(method: string, url: URL, call: Call, requestId: string): { status: number; body: string; afterExecution: boolean } {
    this.d.store.request = { id: requestId, idempotencyKey: call.idemKey ?? null };
    try {
      const answer = this.d.api.call(method, url.pathname, new Reader(call.params), { account: call.onAccount });
      if (answer.found) return { status: 200, body: JSON.stringify(answer.body, null, 2), afterExecution: false };
      const notFound = new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`);
      return { status: 404, body: JSON.stringify(notFound.body(requestId), null, 2), afterExecution: false };
    } catch (err) {
      if (!(err instanceof StripeApiError)) this.d.log(`${method} ${url.pathname}: ${(err as Error).stack ?? err}`);
      const e = err instanceof StripeApiError ? err : new StripeApiError(500, 'api_error', `An unexpected error occurred in the emulator: ${(err as Error).message}`);
      return { status: e.status, body: JSON.stringify(e.body(requestId), null, 2), afterExecution: e.afterExecution };
    } finally {
      this.d.store.request = null;
    }
  }
}
