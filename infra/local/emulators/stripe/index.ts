// Stripe: our own emulator of the parts of Stripe's API the payments and payouts code calls
// (decision 042), an in-process HTTP server the twin starts like the Replicate one. The official
// `stripe` client talks to it (`new Stripe(key, { host, port, protocol: 'http' })`): Stripe's
// paths and form-encoded parameters, Bearer secret-key auth, `Idempotency-Key` replay, Stripe's
// error shape, lists and expansion; hosted Checkout and billing portal pages where test cards
// are typed; subscriptions renewed, retried and ended on a clock the twin moves; refunds and
// disputes; Connect (connected accounts onboarded on a hosted page, transfers from the
// platform's balance, payouts to their bank accounts); events signed as Stripe signs them and
// delivered with retries.
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type Stripe from 'stripe';
import { endpointFor, LOOPBACK, resolvePort, withFreshPortOnClash, type EmulatorHandle, type EmulatorOptions } from '../ports';
import { Api } from './api';
import { TEST_CARDS, type TestCard } from './cards';
import { days } from './clock';
import { Connect } from './connect';
import { Engine, formatAmount, type CatalogProduct } from './engine';
import { parseForm, Reader, StripeApiError, type Params } from './form';
import { newId, randomText } from './objects';
import { checkoutPage, documentPage, messagePage, onboardingPage, portalPage, type CardFormError } from './pages';
import { Webhooks, type Delivery, type StripeFault } from './webhooks';

export { planCatalog, planPriceId, creditPriceId } from './catalog';
export { spacedNumber } from './cards';
export { ONBOARDING_TEST_VALUES } from './connect';

/** The test handle of the emulator (`twin.stripe`; over HTTP, `stripeControlClient`). */
export interface StripeControl {
  /** The secret key the API accepts (`sk_test_...`). */
  readonly secretKey: string;
  /** The publishable key, for a browser (`pk_test_...`). */
  readonly publishableKey: string;
  inject(fault: StripeFault): void;
  /** Clears every fault and makes the deliveries an out-of-order fault holds. */
  clear(): void;
  /** Makes the held deliveries now, newest first; returns how many. */
  flush(): number;
  /** Every delivery so far (of an event type, or about one object, when asked). */
  deliveries(filter?: { type?: string; objectId?: string }): Delivery[];
  /**
   * Moves the emulator's own clock (every customer not on a test clock) forward and carries out
   * what fell due in between, in time order: renewals, payment retries, cancellations at the
   * period's end. Answers once done (the events' deliveries follow).
   */
  advanceClock(by: { seconds?: number; days?: number; to?: number }): { now: number };
  /** The emulator's own clock, in Unix seconds. */
  now(): number;
  /** Opens a dispute on a charge (or a PaymentIntent's charge), as a cardholder's bank would. */
  openDispute(p: { charge?: string; paymentIntent?: string; reason?: string }): Stripe.Dispute;
  /**
   * A webhook endpoint, as the twin configures its own (the `whsec_` secret given or made);
   * `connect: true` makes it a Connect endpoint (the events of connected accounts, only those).
   */
  addWebhookEndpoint(p: { url: string; secret?: string; enabledEvents?: string[]; connect?: boolean }): Stripe.WebhookEndpoint;
  /** The test cards the hosted pages take. */
  readonly testCards: readonly TestCard[];
}

export interface StripeEmulator extends EmulatorHandle, StripeControl {}

export interface StripeOptions extends EmulatorOptions {
  /**
   * The only secret key accepted, a test-mode key as Stripe issues them (`sk_test_` and letters
   * and digits); a random one when absent.
   */
  secretKey?: string;
  /** Products and prices there from the start (the twin's: `planCatalog()`). */
  catalog?: CatalogProduct[];
  /** Webhook endpoints there from the start (URL and `whsec_` secret; `connect: true` for a Connect endpoint). */
  webhookEndpoints?: Array<{ url: string; secret?: string; enabledEvents?: string[]; connect?: boolean }>;
  /** Pauses between attempts of a delivery the endpoint did not accept (Stripe: back-off over three days). */
  webhookRetryDelaysMs?: number[];
  /** How long a delivery waits for the endpoint's answer. */
  webhookTimeoutMs?: number;
  /** Days after each failed attempt when a renewal's payment is tried again (default 3, 5, 7: four attempts in 15 days). */
  retryScheduleDays?: number[];
  /** After the last retry fails: cancel the subscription (default) or mark it unpaid. */
  afterFailedRetries?: 'cancel' | 'unpaid';
  log?: (line: string) => void;
}

const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 24 * 3_600_000, 24 * 3_600_000];
const MAX_BODY_BYTES = 1024 * 1024;
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

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new StripeApiError(413, 'invalid_request_error', 'The request body is larger than 1 MB.');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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

/** A test-mode secret key's shape; the emulator is test mode only, so never `sk_live_`. */
const SECRET_KEY_SHAPE = /^sk_test_[A-Za-z0-9]{24,}$/;

const redact = (key: string) => `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

export async function startStripe(options: StripeOptions = {}): Promise<StripeEmulator> {
  // Stripe's keys: `sk_test_` and 99 letters and digits, and a publishable key of the same length.
  const secretKey = options.secretKey ?? `sk_test_${randomText(99)}`;
  if (!SECRET_KEY_SHAPE.test(secretKey)) {
    throw new Error(`The Stripe emulator takes a test-mode secret key, sk_test_ and letters and digits; got one starting ${JSON.stringify(secretKey.slice(0, 8))}`);
  }
  const publishableKey = `pk_test_${createHash('sha512').update(secretKey).digest('hex').slice(0, 99)}`;
  const log = options.log ?? (options.verbose ? (line: string) => console.log(`[stripe] ${line}`) : () => undefined);
  let endpoint = '';
  const webhooks = new Webhooks({ retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS, timeoutMs: options.webhookTimeoutMs ?? 10_000, log });
  const engine = new Engine({
    endpoint: () => endpoint,
    webhooks,
    retryScheduleDays: options.retryScheduleDays ?? [3, 5, 7],
    afterFailedRetries: options.afterFailedRetries ?? 'cancel',
    log,
  });
  engine.seed(options.catalog ?? []);
  for (const e of options.webhookEndpoints ?? []) webhooks.addEndpoint({ ...e, created: Math.floor(Date.now() / 1000) });
  const connect = new Connect(engine, webhooks, () => endpoint, log);
  const api = new Api(engine, webhooks, connect);
  const saved = new Map<string, Saved>();
  const inFlight = new Set<string>();

  const sendJson = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'stripe-version': '2026-10-28.endive', ...headers }).end(body);
  };
  const sendHtml = (res: http.ServerResponse, status: number, html: string) => {
    res
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
      })
      .end(html);
  };
  const redirect = (res: http.ServerResponse, location: string): void => void res.writeHead(303, { location }).end();

  /** One API call: auth, faults, idempotency, the route, Stripe's error shape. */
  const apiCall = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<void> => {
    const requestId = newId('req', 14);
    const fail = (err: StripeApiError) => sendJson(res, err.status, JSON.stringify(err.body(requestId), null, 2), { 'request-id': requestId, ...err.headers });
    const key = keyOf(req.headers.authorization);
    if (!key) {
      return fail(
        new StripeApiError(401, 'invalid_request_error', "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/."),
      );
    }
    if (key === publishableKey) {
      return fail(
        new StripeApiError(
          403,
          'invalid_request_error',
          'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
        ),
      );
    }
    if (key !== secretKey) return fail(new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${redact(key)}`, { code: 'api_key_invalid' }));
    const onAccount = (req.headers['stripe-account'] as string | undefined) || null;
    if (onAccount) {
      try {
        connect.requireConnected(onAccount, redact(key));
      } catch (err) {
        return fail(err as StripeApiError);
      }
    }
    const fault = webhooks.takeApiFault(['http-5xx', 'http-429']);
    if (fault === 'http-5xx') return fail(new StripeApiError(500, 'api_error', 'An unknown error occurred (emulated).', {}, { 'stripe-should-retry': 'true' }));
    if (fault === 'http-429') {
      return fail(new StripeApiError(429, 'invalid_request_error', 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', { code: 'rate_limit' }));
    }
    let params: Params;
    try {
      const body = method === 'POST' || method === 'DELETE' ? await readBody(req) : '';
      params = { ...parseForm(url.search.slice(1)), ...parseForm(body) };
    } catch (err) {
      if (err instanceof StripeApiError) return fail(err);
      throw err;
    }
    const idemKey = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    let fingerprint = '';
    let slot = '';
    if (idemKey !== undefined) {
      if (idemKey.length > MAX_IDEMPOTENCY_KEY || idemKey === '') {
        return fail(new StripeApiError(400, 'invalid_request_error', `Idempotency-Key must be between 1 and ${MAX_IDEMPOTENCY_KEY} characters long.`, { param: 'Idempotency-Key' }));
      }
      slot = `${key}\n${idemKey}`;
      fingerprint = `${method} ${url.pathname} ${onAccount ?? ''}\n${JSON.stringify(params)}`;
      const prior = saved.get(slot);
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
        log(`${method} ${url.pathname}: replayed for Idempotency-Key ${idemKey}`);
        return sendJson(res, prior.status, prior.body, { 'request-id': requestId, 'idempotency-key': idemKey, 'idempotent-replayed': 'true', 'original-request': prior.requestId });
      }
      if (inFlight.has(slot)) {
        return fail(
          new StripeApiError(409, 'idempotency_error', 'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through). Please try again later.'),
        );
      }
    }
    let status = 200;
    let body: string;
    let afterExecution = false;
    if (idemKey !== undefined) inFlight.add(slot);
    engine.request = { id: requestId, idempotencyKey: idemKey ?? null };
    try {
      const answer = api.call(method, url.pathname, new Reader(params), { account: onAccount });
      if (!answer.found) {
        status = 404;
        body = JSON.stringify(
          new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`).body(requestId),
          null,
          2,
        );
      } else body = JSON.stringify(answer.body, null, 2);
    } catch (err) {
      if (!(err instanceof StripeApiError)) log(`${method} ${url.pathname}: ${(err as Error).stack ?? err}`);
      const e = err instanceof StripeApiError ? err : new StripeApiError(500, 'api_error', `An unexpected error occurred in the emulator: ${(err as Error).message}`);
      status = e.status;
      afterExecution = e.afterExecution;
      body = JSON.stringify(e.body(requestId), null, 2);
    } finally {
      engine.request = null;
      if (idemKey !== undefined) inFlight.delete(slot);
    }
    // Stripe saves the result once the call ran: successes, card errors, server errors and the
    // errors of a call that had begun its work (a transfer refused for the balance or its
    // destination); a request refused as invalid saved nothing, and can be sent again with the
    // same key.
    if (idemKey !== undefined && (status < 400 || status === 402 || status >= 500 || afterExecution)) saved.set(slot, { fingerprint, status, body, requestId, at: Date.now() });
    if (webhooks.takeApiFault(['lose-answer'])) {
      log(`${method} ${url.pathname}: the answer is lost (fault)`);
      req.socket.destroy();
      return;
    }
    sendJson(res, status, body, { 'request-id': requestId, ...(idemKey !== undefined && { 'idempotency-key': idemKey }) });
  };

  const formOf = async (req: http.IncomingMessage): Promise<Record<string, string>> => Object.fromEntries(new URLSearchParams(await readBody(req)));

  /** The hosted checkout page: GET shows it, POST pays with the typed card. */
  const checkout = async (req: http.IncomingMessage, res: http.ServerResponse, id: string, method: string): Promise<void> => {
    const s = engine.sessions.get(id);
    if (!s) return sendHtml(res, 404, messagePage('Page not found', 'This checkout link is not valid.'));
    const customer = s.customer ? engine.customers.get(s.customer as string) : undefined;
    const lockedEmail = customer?.email ?? s.customer_email ?? null;
    const page = (status: number, error?: CardFormError, values?: Record<string, string>) =>
      sendHtml(res, status, checkoutPage({ session: s, lines: engine.sessionLines(id), lockedEmail, error, values }));
    if (method === 'GET') {
      if (s.status === 'complete') {
        return sendHtml(res, 200, messagePage('Payment complete', 'This payment has been made. You can close this page.', s.success_url ? { href: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id), text: 'Continue to Humanly' } : undefined));
      }
      if (s.status !== 'open' || engine.clocks.now(engine.clockOfCustomer(customer?.id ?? null)) > s.expires_at) {
        return sendHtml(res, 410, messagePage('Session expired', 'This Checkout Session is no longer active.', s.cancel_url ? { href: s.cancel_url, text: 'Return to Humanly' } : undefined));
      }
      return page(200);
    }
    const form = await formOf(req);
    const answer = engine.payCheckout(id, form);
    if (answer.ok) {
      log(`${id}: paid`);
      return answer.redirect ? redirect(res, answer.redirect) : sendHtml(res, 200, messagePage('Payment complete', 'Thank you: your payment has been made.'));
    }
    const values = { email: form.email ?? '', name: form.name ?? '', number: form.number ?? '', expiry: form.expiry ?? '', cvc: '' };
    return page(answer.field === 'session' ? 410 : answer.message.startsWith('Your card was declined') || answer.message.includes('insufficient') ? 402 : 400, answer, values);
  };

  /** Connect's hosted onboarding (an account link): GET shows the form, POST saves it; an expired or used link goes to its refresh URL. */
  const onboarding = async (req: http.IncomingMessage, res: http.ServerResponse, accountId: string, token: string, method: string): Promise<void> => {
    const action = `/setup/e/${accountId}/${token}`;
    if (method === 'GET') {
      const opened = connect.openLink(accountId, token);
      if (!opened) return sendHtml(res, 404, messagePage('Page not found', 'This onboarding link is not valid.'));
      if ('refresh' in opened) return redirect(res, opened.refresh);
      return sendHtml(res, 200, onboardingPage({ action, view: opened.view }));
    }
    const form = await formOf(req);
    const answer = connect.submitOnboarding(accountId, token, form, (req.headers['user-agent'] as string | undefined) ?? null);
    if (!answer) return sendHtml(res, 404, messagePage('Page not found', 'This onboarding link is not valid.'));
    if (answer.kind === 'redirect') return redirect(res, answer.to);
    const opened = connect.openLink(accountId, token);
    if (!opened || 'refresh' in opened) return sendHtml(res, 410, messagePage('Link expired', 'This onboarding link is no longer valid.'));
    const values = { first_name: form.first_name ?? '', last_name: form.last_name ?? '', dob: form.dob ?? '', ssn_last_4: form.ssn_last_4 ?? '', routing_number: form.routing_number ?? '', account_number: form.account_number ?? '' };
    return sendHtml(res, 400, onboardingPage({ action, view: opened.view, errors: answer.errors, values }));
  };

  const NOTICES: Record<string, string> = {
    canceled: 'Your plan will end at the end of this period.',
    renewed: 'Your plan will renew.',
    switched: 'Your plan has been updated.',
    card: 'Your card has been saved.',
  };

  /** The hosted billing portal: GET shows it, POSTs change the plan or the card, then show it again. */
  const portal = async (req: http.IncomingMessage, res: http.ServerResponse, id: string, action: string | undefined, method: string, url: URL): Promise<void> => {
    const ps = engine.portalSessions.get(id);
    if (!ps) return sendHtml(res, 404, messagePage('Page not found', 'This billing link is not valid.'));
    const plans = [...engine.prices.values()].filter((p) => p.active && p.recurring).map((price) => ({ price, name: engine.productName(price) })).sort((a, b) => (a.price.unit_amount ?? 0) - (b.price.unit_amount ?? 0));
    const show = (status: number, notice?: string, error?: CardFormError, values?: Record<string, string>) => {
      const view = engine.portalView(ps.customer);
      const scheduled = view.subscription?.schedule ? engine.schedules.get(view.subscription.schedule as string) : undefined;
      const scheduledPrice = scheduled?.phases[1]?.items[0]?.price;
      const scheduledPlan = typeof scheduledPrice === 'string' ? plans.find((x) => x.price.id === scheduledPrice)?.name : undefined;
      sendHtml(res, status, portalPage({ sessionId: id, returnUrl: ps.return_url, ...view, plans, scheduledPlan, notice, error, values }));
    };
    if (method === 'GET' && !action) return show(200, NOTICES[url.searchParams.get('done') ?? '']);
    if (method !== 'POST') return sendHtml(res, 405, messagePage('Not allowed', 'This page takes a form.'));
    const form = await formOf(req);
    const done = (what: string) => redirect(res, `/p/session/${id}?done=${what}`);
    if (action === 'cancel') {
      engine.portalCancel(ps.customer, true);
      return done('canceled');
    }
    if (action === 'renew') {
      engine.portalCancel(ps.customer, false);
      return done('renewed');
    }
    if (action === 'switch') {
      const problem = engine.portalSwitch(ps.customer, form.price ?? '');
      return problem ? show(400, undefined, { field: 'session', message: problem }) : done('switched');
    }
    if (action === 'payment-method') {
      const problem = engine.portalUpdateCard(ps.customer, form);
      return problem ? show(400, undefined, problem, { name: form.name ?? '', number: form.number ?? '', expiry: form.expiry ?? '', cvc: '' }) : done('card');
    }
    return sendHtml(res, 404, messagePage('Page not found', 'The billing portal has no such action.'));
  };

  /** A charge's receipt and an invoice's hosted page. */
  const document = (res: http.ServerResponse, kind: 'receipts' | 'invoices', id: string): void => {
    if (kind === 'invoices') {
      const inv = engine.invoices.get(id);
      if (!inv) return sendHtml(res, 404, messagePage('Page not found', 'No such invoice.'));
      return sendHtml(
        res,
        200,
        documentPage({
          title: 'Invoice',
          number: inv.number,
          date: inv.created,
          email: inv.customer_email,
          rows: inv.lines.data.map((l) => ({ text: l.description ?? '', amount: l.amount })),
          total: inv.total,
          currency: inv.currency,
          status: inv.status === 'paid' ? 'Paid' : inv.status === 'open' ? `Due: ${formatAmount(inv.amount_remaining, inv.currency)}` : String(inv.status),
        }),
      );
    }
    const ch = engine.charges.get(id);
    if (!ch || ch.status !== 'succeeded') return sendHtml(res, 404, messagePage('Page not found', 'No such receipt.'));
    const card = ch.payment_method_details?.card;
    return sendHtml(
      res,
      200,
      documentPage({
        title: 'Receipt',
        number: null,
        date: ch.created,
        email: ch.receipt_email,
        rows: [{ text: ch.description ?? 'Payment', amount: ch.amount }, ...(ch.amount_refunded ? [{ text: 'Refunded', amount: -ch.amount_refunded }] : [])],
        total: ch.amount - ch.amount_refunded,
        currency: ch.currency,
        status: ch.refunded ? 'Refunded' : 'Paid',
        card: card ? `${(card.brand ?? 'card').toUpperCase()} ending in ${card.last4}` : undefined,
      }),
    );
  };

  const handle_: StripeControl = {
    secretKey,
    publishableKey,
    testCards: TEST_CARDS,
    inject: (fault) => webhooks.inject(fault),
    clear: () => webhooks.clear(),
    flush: () => webhooks.flush(),
    deliveries: (filter = {}) =>
      webhooks.deliveries
        .filter((d) => (!filter.type || d.type === filter.type) && (!filter.objectId || d.objectId === filter.objectId))
        .map((d) => ({ ...d, attempts: [...d.attempts] })),
    advanceClock(by) {
      const now = engine.clocks.now(null);
      const to = by.to ?? now + (by.seconds ?? 0) + days(by.days ?? 0);
      if (!Number.isFinite(to) || !Number.isInteger(to)) throw new Error(`advanceClock needs whole seconds, days or a Unix time 'to', got ${JSON.stringify(by)}`);
      if (to < now) throw new Error(`advanceClock moves forward only: ${to} is before the clock's ${now}`);
      engine.runDue(null, to);
      return { now: engine.clocks.now(null) };
    },
    now: () => engine.clocks.now(null),
    openDispute(p) {
      let chargeId = p.charge;
      if (!chargeId && p.paymentIntent) {
        const pi = engine.paymentIntents.get(p.paymentIntent);
        if (!pi?.latest_charge) throw new Error(`PaymentIntent ${p.paymentIntent} has no charge to dispute`);
        chargeId = pi.latest_charge as string;
      }
      if (!chargeId) throw new Error('openDispute needs a charge or a paymentIntent');
      return engine.openDispute(chargeId, p.reason ?? 'fraudulent');
    },
    addWebhookEndpoint: (p) => webhooks.addEndpoint({ ...p, created: Math.floor(Date.now() / 1000) }),
  };

  /** The test handle over HTTP (`stripeControlClient`), for test files whose twin runs in another process. */
  const control = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<void> => {
    const text = method === 'POST' ? await readBody(req) : '';
    const body = text ? JSON.parse(text) : {};
    const done = (result: unknown = null): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
    const op = url.pathname.slice('/_emulator/'.length);
    try {
      if (method === 'GET' && op === 'config') {
        return done({ secretKey, publishableKey, testCards: TEST_CARDS, prices: [...engine.prices.values()].map((p) => ({ id: p.id, lookupKey: p.lookup_key, product: p.product })) });
      }
      if (method === 'POST' && op === 'inject') return done(handle_.inject(body));
      if (method === 'POST' && op === 'clear') return done(handle_.clear());
      if (method === 'POST' && op === 'flush') return done(handle_.flush());
      if (method === 'GET' && op === 'deliveries') {
        return done(handle_.deliveries({ type: url.searchParams.get('type') ?? undefined, objectId: url.searchParams.get('objectId') ?? undefined }));
      }
      if (method === 'POST' && op === 'clock/advance') return done(handle_.advanceClock(body));
      if (method === 'GET' && op === 'clock') return done({ now: handle_.now() });
      if (method === 'POST' && op === 'disputes') return done(handle_.openDispute(body));
      if (method === 'POST' && op === 'webhook-endpoints') return done(handle_.addWebhookEndpoint(body));
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `The emulator has no control ${method} ${url.pathname}` }));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/v1/')) return apiCall(req, res, url, method);
    if (url.pathname.startsWith('/_emulator/')) return control(req, res, url, method);
    const pay = /^\/c\/pay\/(cs_test_[A-Za-z0-9]+)$/.exec(url.pathname);
    if (pay && (method === 'GET' || method === 'POST')) return checkout(req, res, pay[1], method);
    const portalMatch = /^\/p\/session\/(bps_[A-Za-z0-9]+)(?:\/(cancel|renew|switch|payment-method))?$/.exec(url.pathname);
    if (portalMatch) return portal(req, res, portalMatch[1], portalMatch[2], method, url);
    const setup = /^\/setup\/e\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9]+)$/.exec(url.pathname);
    if (setup && (method === 'GET' || method === 'POST')) return onboarding(req, res, setup[1], setup[2], method);
    const doc = /^\/(receipts|invoices)\/((?:ch|in)_[A-Za-z0-9]+)$/.exec(url.pathname);
    if (doc && method === 'GET') return document(res, doc[1] as 'receipts' | 'invoices', doc[2]);
    sendHtml(res, 404, messagePage('Page not found', 'The Stripe emulator has no such page.'));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      log(`${req.method} ${req.url}: ${(err as Error).stack ?? err}`);
      if (res.headersSent) return;
      const e = err instanceof StripeApiError ? err : new StripeApiError(500, 'api_error', (err as Error).message);
      sendJson(res, e.status, JSON.stringify(e.body(newId('req', 14)), null, 2));
    });
  });
  server.keepAliveTimeout = 60_000;

  const port = await withFreshPortOnClash(options.port, async () => {
    const p = await resolvePort(options.port);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, LOOPBACK, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return p;
  });
  endpoint = endpointFor(port);
  log(`listening on ${endpoint} (${engine.prices.size} prices)`);

  return {
    endpoint,
    port,
    ...handle_,
    async stop() {
      webhooks.stop();
      connect.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The test handle of an emulator in another process (the shared test twin's), through its `/_emulator/` routes. */
export interface StripeControlClient {
  config(): Promise<{ secretKey: string; publishableKey: string; testCards: TestCard[]; prices: Array<{ id: string; lookupKey: string | null; product: string }> }>;
  inject(fault: StripeFault): Promise<void>;
  clear(): Promise<void>;
  flush(): Promise<number>;
  deliveries(filter?: { type?: string; objectId?: string }): Promise<Delivery[]>;
  advanceClock(by: { seconds?: number; days?: number; to?: number }): Promise<{ now: number }>;
  now(): Promise<number>;
  openDispute(p: { charge?: string; paymentIntent?: string; reason?: string }): Promise<Stripe.Dispute>;
  addWebhookEndpoint(p: { url: string; secret?: string; enabledEvents?: string[]; connect?: boolean }): Promise<Stripe.WebhookEndpoint>;
}

export function stripeControlClient(endpoint: string): StripeControlClient {
  const call = async (method: 'GET' | 'POST', op: string, body?: unknown) => {
    const res = await fetch(`${endpoint}/_emulator/${op}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as { result?: unknown; error?: string };
    if (!res.ok) throw new Error(answer.error ?? `the Stripe emulator answered ${res.status} to ${op}`);
    return answer.result;
  };
  return {
    config: async () => (await call('GET', 'config')) as Awaited<ReturnType<StripeControlClient['config']>>,
    inject: async (fault) => void (await call('POST', 'inject', fault)),
    clear: async () => void (await call('POST', 'clear', {})),
    flush: async () => (await call('POST', 'flush', {})) as number,
    deliveries: async (filter = {}) => {
      const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined) as Array<[string, string]>);
      return (await call('GET', `deliveries${q.size ? `?${q}` : ''}`)) as Delivery[];
    },
    advanceClock: async (by) => (await call('POST', 'clock/advance', by)) as { now: number },
    now: async () => ((await call('GET', 'clock')) as { now: number }).now,
    openDispute: async (p) => (await call('POST', 'disputes', p)) as Stripe.Dispute,
    addWebhookEndpoint: async (p) => (await call('POST', 'webhook-endpoints', p)) as Stripe.WebhookEndpoint,
  };
}
