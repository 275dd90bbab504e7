import { Duration, NestedStack, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { PAYMENTS_ACCOUNT_INDEX, PAYMENTS_LIST_INDEX } from '../../../events/resource-names';
import { AppFunction, type TableAction } from '../platform/app-function';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

export interface PaymentsProps {
  /** Balances and ledgers: verified Stripe events grant, expire and take back credits; plans live on profiles. */
  accountsTable: ITable;
}

/** The accounts table actions of a function that changes credits or a plan (the ledger's transaction, the profile and its audit). */
const LEDGER_AND_PLAN: TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'Query'];

/**
 * Payments (functions/payments, docs/payments.md): Stripe
 * Checkout for plans and credit packs, the billing portal, the signed webhook route that applies
 * every verified event once, and the console's billing views and refunds. Stripe is the source
 * of truth for money, our credit ledger for credits. A nested stack of its own (decision 032).
 */
export class Payments extends NestedStack {
  /** Customers, checkouts, payments, subscription mirrors and revenue by month. */
  readonly table: AppTable;
  readonly stripeSecretKey: ISecret;
  readonly stripeWebhookSecret: ISecret;

  constructor(scope: Stack, id: string, platform: Platform, props: PaymentsProps) {
    super(scope, id, { description: 'Client payments through Stripe: checkout, subscriptions, billing portal, refunds' });
    const { config } = platform;
    this.table = new AppTable(this, 'PaymentsTable', {
      partitionKey: 'pk',
      sortKey: 'sk',
      indexes: [
        { name: PAYMENTS_ACCOUNT_INDEX, partitionKey: 'accountKey', sortKey: 'at' },
        { name: PAYMENTS_LIST_INDEX, partitionKey: 'listKey', sortKey: 'at' },
      ],
      timeToLiveAttribute: 'expiresAt',
      retain: config.retainData,
    });

    // Logical ids start with StripeSecretKey and StripeWebhookSecret: the twin's Stripe emulator
    // accepts the first and signs its events with the second (decision 042).
    this.stripeSecretKey = config.stripeSecretKeyName
      ? Secret.fromSecretNameV2(this, 'StripeSecretKey', config.stripeSecretKeyName)
      : new Secret(this, 'StripeSecretKey', {
          description: 'Stripe secret key (put the live or test key here before taking payments)',
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });
    this.stripeWebhookSecret = config.stripeWebhookSecretName
      ? Secret.fromSecretNameV2(this, 'StripeWebhookSecret', config.stripeWebhookSecretName)
      : new Secret(this, 'StripeWebhookSecret', {
          description: "Signing secret (whsec_...) of Stripe's webhook endpoint for POST /webhooks/stripe",
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });

    this.clientRoutes(platform, props);
    this.webhook(platform, props);
    this.consoleRoutes(platform, props);
  }

  /** A function that calls Stripe: its secret key, its prices, its API address. */
  private stripeFunction(id: string, entry: string, description: string, platform: Platform, extra: { timeout?: Duration } = {}): AppFunction {
    const fn = new AppFunction(this, id, { entry, description, timeout: extra.timeout ?? Duration.seconds(30) })
      .bindTable(this.table, 'PAYMENTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'Query'])
      .addEnvironment('STRIPE_SECRET_KEY_SECRET', platform.config.stripeSecretKeyName ?? this.stripeSecretKey.secretArn)
      .addEnvironment('STRIPE_PRICES', JSON.stringify(platform.config.stripePrices))
      .addEnvironment('SITE_URL', platform.siteUrl.replace(/\/$/, ''));
    this.stripeSecretKey.grantRead(fn);
    return fn;
  }

  /** The signed-in client's checkouts, billing portal and billing state. */
  private clientRoutes(platform: Platform, props: PaymentsProps): void {
    const { api, rateLimits } = platform;
    const checkout = this.stripeFunction(
      'CreateCheckoutSession',
      'functions/payments/routes/create-checkout-session/handler.ts',
      'POST /me/checkout-sessions: Stripe Checkout for a plan or credit packs, priced from the server configuration',
      platform,
    ).bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    rateLimits.bind(checkout);
    api.route('POST /me/checkout-sessions', checkout, 'client');

    const status = this.stripeFunction(
      'GetCheckoutSession',
      'functions/payments/routes/get-checkout-session/handler.ts',
      "GET /me/checkout-sessions/{id}: whether the client's checkout is paid and applied",
      platform,
    );
    api.route('GET /me/checkout-sessions/{id}', status, 'client');

    const portal = this.stripeFunction(
      'CreatePortalSession',
      'functions/payments/routes/create-portal-session/handler.ts',
      "POST /me/billing-portal-sessions: opens Stripe's billing portal for the client's own customer",
      platform,
    ).bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    rateLimits.bind(portal);
    api.route('POST /me/billing-portal-sessions', portal, 'client');

    const billing = this.stripeFunction('GetBilling', 'functions/payments/routes/get-billing/handler.ts', "GET /me/billing: the client's plan and subscription", platform)
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    api.route('GET /me/billing', billing, 'client');
  }

  /**
   * `POST /webhooks/stripe`: verified with the `stripe` package on the raw body, each event
   * applied once by its id, reading the object's current state from Stripe; any failure answers
   * 500 so Stripe sends the event again.
   */
  private webhook(platform: Platform, props: PaymentsProps): void {
    const { api, email, idempotency } = platform;
    const receive = this.stripeFunction(
      'ReceiveStripeEvent',
      'functions/payments/routes/receive-stripe-event/handler.ts',
      'POST /webhooks/stripe: applies each verified Stripe event once (credits, plans, refunds, emails)',
      platform,
      { timeout: Duration.seconds(60) },
    )
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', LEDGER_AND_PLAN, { indexes: false })
      .addEnvironment('STRIPE_WEBHOOK_SECRET_SECRET', platform.config.stripeWebhookSecretName ?? this.stripeWebhookSecret.secretArn)
      .bindEmail(email)
      // Payments.SpentCreditsRefunded: the royalties of refunded images come off the talent's next statement.
      .bindBus(platform.bus);
    this.stripeWebhookSecret.grantRead(receive);
    idempotency.bind(receive);
    api.route('POST /webhooks/stripe', receive, 'signed');
  }

  /**
   * The console: a client's billing, refunds through Stripe, and the dashboard's revenue. Each
   * function gets the Payments table actions its reads and writes need, and the Stripe key only
   * where it calls Stripe (no prices, no site address: neither starts a checkout).
   */
  private consoleRoutes(platform: Platform, props: PaymentsProps): void {
    const { api } = platform;
    const consoleFunction = (id: string, entry: string, description: string, actions: TableAction[], stripe: boolean): AppFunction => {
      const fn = new AppFunction(this, id, { entry, description, timeout: Duration.seconds(30) }).bindTable(this.table, 'PAYMENTS_TABLE', actions);
      if (stripe) {
        fn.addEnvironment('STRIPE_SECRET_KEY_SECRET', platform.config.stripeSecretKeyName ?? this.stripeSecretKey.secretArn);
        this.stripeSecretKey.grantRead(fn);
      }
      return fn;
    };

    const billing = consoleFunction(
      'AdminGetUserBilling',
      'functions/payments/routes/get-user-billing/handler.ts',
      "GET /admin/users/{id}/billing: a client's subscription, invoices and payments (admins only)",
      ['GetItem', 'Query'],
      true,
    ).bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem'], { indexes: false });
    api.route('GET /admin/users/{id}/billing', billing, 'admin');

    // Reads the payment and records who asked for the refund; the credits go back on the webhook.
    const refund = consoleFunction(
      'AdminRefundPayment',
      'functions/payments/routes/refund-payment/handler.ts',
      'POST /admin/payments/{id}/refund: refunds a payment through Stripe; the credits go back on its event (admins only)',
      ['GetItem', 'UpdateItem'],
      true,
    );
    api.route('POST /admin/payments/{id}/refund', refund, 'admin');

    const revenue = consoleFunction(
      'AdminGetRevenue',
      'functions/payments/routes/get-revenue/handler.ts',
      "GET /admin/revenue: this month's revenue and recurring revenue (admins only)",
      ['Query'],
      false,
    );
    api.route('GET /admin/revenue', revenue, 'admin');
  }
}
