import { Duration, NestedStack, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { PAYOUTS_LIST_INDEX } from '../../../events/payout-values';
import { GENERATIONS_CREATED_INDEX } from '../../../events/resource-names';
import { ROYALTIES_MONTH_CLOSED } from '../../../events/royalty-events';
import { AppFunction, type TableAction } from '../platform/app-function';
import { consumeEvents } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

export interface PayoutsProps {
  /** Accounts: the talent routes create an invited person's profile. */
  accountsTable: ITable;
  /** Founding applications: a talent's standing and their address. */
  applicationsTable: ITable;
  /** The catalog: the talent behind an account, their name. */
  talentTable: ITable;
  /** The Generations table: the monthly statements (read, and marked paid by Stripe). */
  generationsTable: ITable;
  /** The platform's Stripe secret key (the Payments stack's secret). */
  stripeSecretKey: ISecret;
}

const STATEMENT_WRITES: TableAction[] = ['GetItem', 'Query', 'UpdateItem'];
const PAYOUT_WRITES: TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'Query', 'DeleteItem'];

/**
 * Payouts to talent through Stripe Connect (functions/payouts, docs/payouts.md, decision 044):
 * onboarding through Stripe's hosted page, the payout run after each monthly close (one transfer
 * per statement at or above the minimum), the signed Connect webhook (account state, bank
 * changes, bank payouts, reversals), the console's payout runs with their reconciliation, retry
 * and manual payouts, and the talent's payouts and yearly earnings. A nested stack of its own
 * (decision 032).
 */
export class Payouts extends NestedStack {
  /** Connected accounts, statement payouts, runs and the talent's payout history. */
  readonly table: AppTable;
  readonly connectWebhookSecret: ISecret;

  constructor(scope: Stack, id: string, platform: Platform, props: PayoutsProps) {
    super(scope, id, { description: 'Talent payouts through Stripe Connect: onboarding, transfers after each close, reconciliation' });
    const { config } = platform;
    this.table = new AppTable(this, 'PayoutsTable', {
      partitionKey: 'pk',
      sortKey: 'sk',
      indexes: [{ name: PAYOUTS_LIST_INDEX, partitionKey: 'listKey', sortKey: 'at' }],
      retain: config.retainData,
    });
    // The logical id starts with StripeConnectWebhookSecret: the twin's Stripe emulator signs the
    // events of its Connect endpoint with it (decision 044).
    this.connectWebhookSecret = config.stripeConnectWebhookSecretName
      ? Secret.fromSecretNameV2(this, 'StripeConnectWebhookSecret', config.stripeConnectWebhookSecretName)
      : new Secret(this, 'StripeConnectWebhookSecret', {
          description: "Signing secret (whsec_...) of Stripe's Connect webhook endpoint for POST /webhooks/stripe-connect",
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });

    this.talentRoutes(platform, props);
    this.webhook(platform, props);
    this.payoutRun(platform, props);
    this.consoleRoutes(platform, props);
  }

  /** A function that calls Stripe and reads or writes the payouts: its key, the site address, the minimum. */
  private stripeFunction(id: string, entry: string, description: string, platform: Platform, props: PayoutsProps, actions: TableAction[] = PAYOUT_WRITES): AppFunction {
    const fn = new AppFunction(this, id, { entry, description, timeout: Duration.seconds(60) })
      .bindTable(this.table, 'PAYOUTS_TABLE', actions)
      .addEnvironment('STRIPE_SECRET_KEY_SECRET', platform.config.stripeSecretKeyName ?? props.stripeSecretKey.secretArn)
      .addEnvironment('SITE_URL', platform.siteUrl.replace(/\/$/, ''))
      .addEnvironment('PAYOUT_MINIMUM_CENTS', String(platform.config.payoutMinimumCents));
    props.stripeSecretKey.grantRead(fn);
    return fn;
  }

  /** Reads a month's statements through the Generations table's byCreated index (another stack's table: the grant names the index). */
  private statements(fn: AppFunction, props: PayoutsProps, actions: TableAction[]): AppFunction {
    fn.bindTable(props.generationsTable, 'GENERATIONS_TABLE', actions, { indexes: false });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.generationsTable.tableArn}/index/${GENERATIONS_CREATED_INDEX}`] }));
    return fn;
  }

  /** Finds a talent's name and address for the payout emails (catalog, then their founding application). */
  private talentAddress(fn: AppFunction, props: PayoutsProps): AppFunction {
    return fn.bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false }).bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false });
  }

  /** The accepted talent's own: onboarding, their payouts and yearly earnings. */
  private talentRoutes(platform: Platform, props: PayoutsProps): void {
    const { api, rateLimits } = platform;
    const talentOf = (fn: AppFunction) =>
      fn
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
        .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);

    const onboarding = talentOf(
      this.stripeFunction(
        'StartPayoutOnboarding',
        'functions/payouts/routes/start-onboarding/handler.ts',
        "POST /me/payouts/onboarding: creates the talent's connected account once and answers Stripe's onboarding link",
        platform,
        props,
      ),
    );
    rateLimits.bind(onboarding);
    api.route('POST /me/payouts/onboarding', onboarding, 'accepted-talent');

    const mine = talentOf(
      this.stripeFunction(
        'MyPayouts',
        'functions/payouts/routes/my-payouts/handler.ts',
        "GET /me/payouts: the talent's payout account as Stripe says now and each statement's payout",
        platform,
        props,
        ['GetItem', 'Query', 'UpdateItem'],
      ),
    ).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false });
    api.route('GET /me/payouts', mine, 'accepted-talent');

    // The year's statements and payouts: neither Stripe nor a write.
    const earnings = talentOf(
      new AppFunction(this, 'MyEarningsCsv', {
        entry: 'functions/payouts/routes/export-my-earnings-csv/handler.ts',
        description: "GET /me/payouts/earnings.csv: the talent's statements and payouts of a year, for their taxes",
      }),
    )
      .bindTable(this.table, 'PAYOUTS_TABLE', ['Query'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false });
    api.route('GET /me/payouts/earnings.csv', earnings, 'accepted-talent');
  }

  /**
   * `POST /webhooks/stripe-connect`: events of the connected accounts, verified with the `stripe`
   * package on the raw body and the Connect endpoint's secret, each applied once by its id.
   */
  private webhook(platform: Platform, props: PayoutsProps): void {
    const receive = this.talentAddress(
      this.statements(
        this.stripeFunction(
          'ReceiveConnectEvent',
          'functions/payouts/routes/receive-connect-event/handler.ts',
          'POST /webhooks/stripe-connect: applies each verified Connect event once (account state, bank changes, bank payouts, reversals)',
          platform,
          props,
        ),
        props,
        STATEMENT_WRITES,
      ),
      props,
    )
      .addEnvironment('STRIPE_CONNECT_WEBHOOK_SECRET_SECRET', platform.config.stripeConnectWebhookSecretName ?? this.connectWebhookSecret.secretArn)
      .bindEmail(platform.email);
    // Each delivery applied once, each email sent once (decision 050).
    platform.idempotency.bind(receive);
    this.connectWebhookSecret.grantRead(receive);
    platform.api.route('POST /webhooks/stripe-connect', receive, 'signed');
  }

  /** The payout run after each monthly close: `Royalties.MonthClosed` -> run-payouts. */
  private payoutRun(platform: Platform, props: PayoutsProps): void {
    const run = this.talentAddress(
      this.statements(
        this.stripeFunction('RunPayouts', 'functions/payouts/triggers/run-payouts/handler.ts', "Pays a closed month's statements through Stripe transfers, once each", platform, props),
        props,
        STATEMENT_WRITES,
      ),
      props,
    ).bindEmail(platform.email);
    platform.idempotency.bind(run);
    consumeEvents(this, 'OnMonthClosed', { bus: platform.bus, detailType: ROYALTIES_MONTH_CLOSED, consumer: run, consequence: 'the payout run of the month' });
  }

  /** The console: payout runs with their reconciliation and CSV, retry, manual payouts, a talent's history. */
  private consoleRoutes(platform: Platform, props: PayoutsProps): void {
    const { api } = platform;
    // A month's run: its statements, payouts and Stripe's transfers, read only.
    const runReader = (id: string, entry: string, description: string) =>
      this.statements(this.stripeFunction(id, entry, description, platform, props, ['GetItem', 'Query']), props, ['GetItem', 'Query']);
    const run = runReader('AdminGetPayoutRun', 'functions/payouts/routes/get-payout-run/handler.ts', "GET /admin/payout-runs/{month}: payouts, Stripe's transfers, reconciliation (admins only)");
    api.route('GET /admin/payout-runs/{month}', run, 'admin');
    const runCsv = runReader('AdminExportPayoutRunCsv', 'functions/payouts/routes/export-payout-run-csv/handler.ts', "GET /admin/payout-runs/{month}/csv: the month's run as a CSV download (admins only)");
    api.route('GET /admin/payout-runs/{month}/csv', runCsv, 'admin');

    const history = new AppFunction(this, 'AdminGetPayoutHistory', {
      entry: 'functions/payouts/routes/get-payout-history/handler.ts',
      description: "GET /admin/talent/{id}/payout-history: a talent's account events, bank changes and payouts (admins only)",
    }).bindTable(this.table, 'PAYOUTS_TABLE', ['Query'], { indexes: false });
    api.route('GET /admin/talent/{id}/payout-history', history, 'admin');

    // Runs, retries and records payouts: Stripe, the statements and the talent's address for the emails.
    const payoutWriter = (id: string, entry: string, description: string) =>
      platform.idempotency.bind(this.talentAddress(this.statements(this.stripeFunction(id, entry, description, platform, props), props, STATEMENT_WRITES), props).bindEmail(platform.email));
    const runNow = payoutWriter('AdminRunPayoutMonth', 'functions/payouts/routes/run-payout-month/handler.ts', "POST /admin/payout-runs/{month}: runs the month's payouts now (admins only)");
    api.route('POST /admin/payout-runs/{month}', runNow, 'admin');
    const retry = payoutWriter('AdminRetryPayout', 'functions/payouts/routes/retry-payout/handler.ts', "POST /admin/payouts/{statementId}/retry: a failed payout's transfer once more (admins only)");
    api.route('POST /admin/payouts/{statementId}/retry', retry, 'admin');
    const manual = payoutWriter('AdminRecordManualPayout', 'functions/payouts/routes/record-manual-payout/handler.ts', 'POST /admin/payouts/{statementId}/manual: records a payout made outside Stripe (admins only)');
    api.route('POST /admin/payouts/{statementId}/manual', manual, 'admin');
  }
}
