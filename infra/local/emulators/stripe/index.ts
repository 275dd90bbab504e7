// Stripe: our own emulator of the parts of Stripe's API the payments and payouts code calls
// (decision 042), an in-process HTTP server the twin starts like the Replicate one. The official
// `stripe` client talks to it (`new Stripe(key, { host, port, protocol: 'http' })`): Stripe's
// paths and form-encoded parameters, Bearer secret-key auth, `Idempotency-Key` replay, Stripe's
// error shape, lists and expansion; hosted Checkout and billing portal pages where test cards
// are typed; subscriptions renewed, retried and ended on a clock the twin moves; refunds and
// disputes; Connect (connected accounts onboarded on a hosted page, transfers from the
// platform's balance, payouts to their bank accounts); events signed as Stripe signs them and
// delivered with retries; Identity (VerificationSessions verified on a hosted page, their reports
// and files).
//
// The parts, by resource, each with its API routes and hosted pages: products.ts, customers.ts,
// payments.ts, checkout.ts, subscriptions.ts, schedules.ts, invoices.ts, renewals.ts,
// test-clocks.ts, portal.ts, refunds.ts, disputes.ts, accounts.ts, onboarding.ts, payouts.ts,
// identity.ts (its checks identity-checks.ts, its page identity-page.ts and identity-html.ts),
// files.ts, webhook-endpoints.ts; what they share is store.ts; webhooks.ts delivers the events;
// requests.ts takes an API call (auth, idempotency) and serves files' contents, api.ts routes
// it; control.ts is the test handle.
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import { endpointFor, LOOPBACK, resolvePort, withFreshPortOnClash, type EmulatorHandle, type EmulatorOptions } from '../ports';
import { Accounts } from './accounts';
import { Api } from './api';
import { Checkout } from './checkout';
import { controlRoutes, stripeControl, type StripeControl } from './control';
import { Customers } from './customers';
import { Disputes } from './disputes';
import { Files } from './files';
import { StripeApiError } from './form';
import { Pages, sendHtml, sendJson } from './http';
import { Identity } from './identity';
import { identityPages } from './identity-page';
import { Invoices } from './invoices';
import { list, newId, randomText } from './objects';
import { Onboarding } from './onboarding';
import { messagePage } from './pages';
import { Payments } from './payments';
import { Payouts } from './payouts';
import { Portal } from './portal';
import { type CatalogProduct, Products } from './products';
import { Refunds } from './refunds';
import { Renewals } from './renewals';
import { Requests } from './requests';
import { Schedules } from './schedules';
import { Store } from './store';
import { Subscriptions } from './subscriptions';
import { TestClocks } from './test-clocks';
import { webhookRoutes } from './webhook-endpoints';
import { Webhooks } from './webhooks';

export { planCatalog, planPriceId, creditPriceId } from './catalog';
export { spacedNumber } from './cards';
export { ONBOARDING_TEST_VALUES } from './accounts';
export { stripeControlClient, type StripeControl, type StripeControlClient } from './control';

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
  /**
   * Identity: how long a submitted verification stays `processing`, and a redaction
   * `processing` before `redacted` (default 1 s each; Stripe's test mode takes seconds, a
   * redaction up to four days).
   */
  identityDelaysMs?: { processing?: number; redaction?: number };
  log?: (line: string) => void;
}

const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 24 * 3_600_000, 24 * 3_600_000];

/** A test-mode secret key's shape; the emulator is test mode only, so never `sk_live_`. */
const SECRET_KEY_SHAPE = /^sk_test_[A-Za-z0-9]{24,}$/;

/** Every resource of the emulator, made over one store, with its API routes and hosted pages registered. */
function resources(options: StripeOptions, endpoint: () => string, log: (line: string) => void) {
  const webhooks = new Webhooks({ retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS, timeoutMs: options.webhookTimeoutMs ?? 10_000, log });
  const store = new Store({ endpoint, webhooks, log });
  const products = new Products(store);
  const disputes = new Disputes(store);
  const refunds = new Refunds(store);
  const payments = new Payments(store, disputes);
  const schedules = new Schedules(store);
  const invoices: Invoices = new Invoices(store, payments, {
    retryScheduleDays: options.retryScheduleDays ?? [3, 5, 7],
    afterFailedRetries: options.afterFailedRetries ?? 'cancel',
    cancel: (sub, reason) => subscriptions.cancelNow(sub, reason),
  });
  const subscriptions = new Subscriptions(store, invoices, schedules);
  const renewals = new Renewals(store, subscriptions, invoices, schedules);
  const testClocks = new TestClocks(store, renewals);
  const customers = new Customers(store, payments, subscriptions);
  const checkout = new Checkout(store, payments, subscriptions);
  const portal = new Portal(store, { subscriptions, schedules, invoices, payments });
  const accounts = new Accounts(store);
  const payouts = new Payouts(store, accounts, webhooks);
  const onboarding = new Onboarding(store, accounts, payouts);
  const files = new Files(store);
  const identity = new Identity(store, files, webhooks, { processingMs: options.identityDelaysMs?.processing ?? 1000, redactionMs: options.identityDelaysMs?.redaction ?? 1000 });

  const api = new Api({
    lookup: (id) =>
      store.lookup(id) ?? accounts.accounts.get(id) ?? payouts.transfers.get(id) ?? identity.lookup(id) ?? files.files.get(id) ?? (id.startsWith('we_') ? webhooks.endpoint(id) : undefined),
    includable: (obj, field, within) => {
      if (obj.object === 'checkout.session' && field === 'line_items') {
        return list(`/v1/checkout/sessions/${obj.id}/line_items`, structuredClone(checkout.sessionLines(String(obj.id))));
      }
      if (obj.object === 'invoice' && field === 'payments') return list(`/v1/invoice_payments?invoice=${obj.id}`, structuredClone(invoices.invoicePaymentsOf(String(obj.id))));
      return identity.includable(obj, field, within);
    },
  });
  const pages = new Pages();
  for (const r of [customers, products, checkout, subscriptions, schedules, invoices, payments, refunds, disputes, portal, accounts, onboarding, payouts, testClocks, identity, files]) r.routes(api);
  webhookRoutes(api, webhooks);
  for (const r of [checkout, portal, onboarding, payments, invoices]) r.pages(pages);
  identityPages(pages, identity);

  products.seed(options.catalog ?? []);
  for (const e of options.webhookEndpoints ?? []) webhooks.addEndpoint({ ...e, created: Math.floor(Date.now() / 1000) });
  return { store, webhooks, api, pages, accounts, payouts, renewals, disputes, identity, files };
}

export async function startStripe(options: StripeOptions = {}): Promise<StripeEmulator> {
  // Stripe's keys: `sk_test_` and 99 letters and digits, and a publishable key of the same length.
  const secretKey = options.secretKey ?? `sk_test_${randomText(99)}`;
  if (!SECRET_KEY_SHAPE.test(secretKey)) {
    throw new Error(`The Stripe emulator takes a test-mode secret key, sk_test_ and letters and digits; got one starting ${JSON.stringify(secretKey.slice(0, 8))}`);
  }
  const publishableKey = `pk_test_${createHash('sha512').update(secretKey).digest('hex').slice(0, 99)}`;
  const log = options.log ?? (options.verbose ? (line: string) => console.log(`[stripe] ${line}`) : () => undefined);
  let endpoint = '';
  const { store, webhooks, api, pages, accounts, payouts, renewals, disputes, identity, files } = resources(options, () => endpoint, log);
  const requests = new Requests({ secretKey, publishableKey, api, store, webhooks, accounts, log });
  const handle_ = stripeControl({ secretKey, publishableKey, store, webhooks, renewals, disputes });
  const control = controlRoutes(handle_, store);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const contents = method === 'GET' ? /^\/v1\/files\/([^/]+)\/contents$/.exec(url.pathname) : null;
    if (contents) return requests.download(req, res, () => files.contentsOf(decodeURIComponent(contents[1])));
    if (url.pathname.startsWith('/v1/')) return requests.handle(req, res, url, method);
    if (url.pathname.startsWith('/_emulator/')) return control(req, res, url, method);
    if (await pages.serve(req, res, url, method)) return;
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
  log(`listening on ${endpoint} (${store.prices.size} prices)`);

  return {
    endpoint,
    port,
    ...handle_,
    async stop() {
      webhooks.stop();
      payouts.stop();
      identity.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
