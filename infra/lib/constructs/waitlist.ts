import { RemovalPolicy } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { EventBus } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../../events/product';
import { WAITLIST_SIGNED_UP } from '../../../events/waitlist';
import { AppFunction } from '../app-function';
import { retriedRule } from '../event-rules';
import type { EmailSending } from './email';
import type { MarketplaceApi } from './http-api';
import type { IdempotencyStore } from './idempotency';
import type { RateLimits } from './rate-limits';

export interface WaitlistProps {
  api: MarketplaceApi;
  bus: EventBus;
  idempotency: IdempotencyStore;
  /** Per-IP and per-address limits of signups and confirmations. */
  rateLimits: RateLimits;
  email: EmailSending;
  capacity: number;
  siteUrl: string;
  retainData: boolean;
}

/**
 * The early-access waitlist: signups confirmed by email (docs/decisions/015), places taken on
 * confirmation (capacity enforced by a conditional counter), the `Waitlist.SignedUp` event, and
 * the welcome email sent by its consumer.
 */
export class Waitlist extends Construct {
  readonly table: Table;
  /** The dashboard's figures; the stack binds the other tables it reads. */
  readonly stats: AppFunction;

  constructor(scope: Construct, id: string, props: WaitlistProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Unconfirmed signups and confirmation links expire by themselves; confirmed signups have no expiry.
      timeToLiveAttribute: 'expiresAt',
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Signups in waitlist order, for the console's list and export.
    this.table.addGlobalSecondaryIndex({
      indexName: 'byPosition',
      partitionKey: { name: 'gsi1pk', type: AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: AttributeType.NUMBER },
    });

    const capacity = String(props.capacity);
    const signup = new AppFunction(this, 'EarlySignup', {
      entry: 'functions/waitlist/routes/early-signup/handler.ts',
      description: 'POST /early-signup: asks to join the early-access waitlist and emails the confirmation link',
      environment: {
        WAITLIST_CAPACITY: capacity,
        SENDER_EMAIL: props.email.senderEmail,
        SITE_URL: props.siteUrl,
        SES_CONFIGURATION_SET: props.email.configurationSet.configurationSetName,
      },
    }).bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'PutItem']);
    props.idempotency.bind(signup);
    props.rateLimits.bind(signup);
    props.email.grantSend(signup);
    props.api.publicRoute('/early-signup', HttpMethod.POST, signup, 'EarlySignup');
    // The original backend's path, so its clients keep working.
    props.api.publicRoute('/functions/v1/early-signup', HttpMethod.POST, signup, 'EarlySignupV1');

    const confirm = new AppFunction(this, 'ConfirmSignup', {
      entry: 'functions/waitlist/routes/confirm-waitlist/handler.ts',
      description: 'POST /confirm-waitlist: a confirmation link takes its place on the waitlist',
      environment: { WAITLIST_CAPACITY: capacity },
    })
      .bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'])
      .bindBus(props.bus);
    props.idempotency.bind(confirm);
    props.rateLimits.bind(confirm);
    props.api.publicRoute('/confirm-waitlist', HttpMethod.POST, confirm, 'ConfirmWaitlist');

    const welcome = new AppFunction(this, 'Welcome', {
      entry: 'functions/waitlist/triggers/waitlist-welcome/handler.ts',
      description: 'Sends the waitlist welcome email once per signup',
      environment: {
        SENDER_EMAIL: props.email.senderEmail,
        SITE_URL: props.siteUrl,
        SES_CONFIGURATION_SET: props.email.configurationSet.configurationSetName,
      },
    }).bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'UpdateItem']);
    props.idempotency.bind(welcome);
    props.email.grantSend(welcome);

    retriedRule(this, 'OnSignedUp', {
      eventBus: props.bus,
      description: 'Waitlist.SignedUp -> welcome email',
      eventPattern: { source: [EVENT_SOURCE], detailType: [WAITLIST_SIGNED_UP] },
      deadLetterId: 'WelcomeDeadLetters',
      deadLetterOf: 'the welcome-email rule target',
      target: (retry) => new LambdaFunction(welcome, retry),
    });

    this.stats = new AppFunction(this, 'AdminStats', {
      entry: 'functions/console/routes/get-admin-stats/handler.ts',
      description: 'GET /admin/stats: dashboard figures (admins only)',
      environment: { WAITLIST_CAPACITY: capacity },
    }).bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'Query']);
    props.api.adminRoute('/admin/stats', HttpMethod.GET, this.stats, 'AdminStats');

    props.api.adminTableRoutes(this, this.table, 'WAITLIST_TABLE', [
      { id: 'AdminListWaitlist', route: 'GET /admin/waitlist', entry: 'functions/waitlist/routes/list-waitlist/handler.ts', description: 'GET /admin/waitlist: signups in waitlist order (admins only)', actions: ['Query'] },
      { id: 'AdminExportWaitlist', route: 'GET /admin/waitlist/export', entry: 'functions/waitlist/routes/export-waitlist-csv/handler.ts', description: 'GET /admin/waitlist/export: the waitlist as CSV (admins only)', actions: ['Query'] },
    ]);
  }
}
