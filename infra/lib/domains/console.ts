import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { PENDING_PREFIX } from '../../../events/founding';
import { GENERATION_IMAGES_PREFIX, GENERATIONS_CREATED_INDEX, PAYMENTS_ACCOUNT_INDEX } from '../../../events/resource-names';
import { SAMPLES_PREFIX, TRAINING_SETS_PREFIX } from '../../../events/training-values';
import { AppFunction } from '../platform/app-function';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

export interface ConsoleProps {
  waitlistTable: ITable;
  messagesTable: ITable;
  applicationsTable: ITable;
  /** Profiles, credits and audit of accounts (found by the email index). */
  accountsTable: ITable;
  /** Generations (another stack's table: the dashboard is granted its list index by name). */
  generationsTable: ITable;
  /** Payout accounts, payouts and their history (another stack's table): erasure takes the talent's name and address off. */
  payoutsTable: ITable;
  photosBucket: IBucket;
  /** Delivered images (another stack's bucket): erasure deletes a client's files. */
  imagesBucket: IBucket;
  /** Likeness models and trainings (the Training stack's table) and its byTalent index: erasure deletes a talent's. */
  trainingTable: ITable;
  trainingsByTalentArn: string;
  /** Training sets and samples (the Training stack's bucket): erasure deletes a talent's. */
  trainingBucket: IBucket;
  /** The Replicate API token: erasure deletes the talent's model versions on Replicate. */
  replicateToken: ISecret;
  /** Customers, payments and subscription mirrors (the Payments stack's table): erasure anonymises a client's. */
  paymentsTable: ITable;
  /** The Stripe secret key: erasure cancels a client's subscriptions and deletes their customer. */
  stripeSecretKey: ISecret;
  /** Misuse reports (the Reports stack's table): the dashboard counts the cases waiting. */
  reportsTable: ITable;
}

/**
 * The review console's reads and acts across domains (functions/console): the dashboard's
 * figures, and the erasure of a person's data by email (GDPR Art. 17, decision 019) with the
 * table of erasure records (a hash of the address, when, by whom, what was removed).
 */
export class Console extends Construct {
  readonly erasures: AppTable;

  constructor(scope: Construct, id: string, platform: Platform, props: ConsoleProps) {
    super(scope, id);
    const { api, config, userPool } = platform;
    this.erasures = new AppTable(this, 'ErasureRecordsTable', { partitionKey: 'pk', retain: config.retainData });

    // The dashboard: waitlist and founding counters and indexes, failed contact emails, failed
    // generations on the list index (Query on that index only), and the reports waiting.
    const stats = new AppFunction(this, 'AdminStats', {
      entry: 'functions/console/routes/get-admin-stats/handler.ts',
      description: 'GET /admin/stats: dashboard figures (admins only)',
      environment: { WAITLIST_CAPACITY: String(config.waitlistCapacity), GENERATIONS_TABLE: props.generationsTable.tableName },
    })
      .bindTable(props.waitlistTable, 'WAITLIST_TABLE', ['GetItem', 'Query'])
      .bindTable(props.messagesTable, 'MESSAGES_TABLE', ['Scan'], { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem', 'Query'])
      .bindTable(props.reportsTable, 'REPORTS_TABLE', ['Scan'], { indexes: false });
    stats.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.generationsTable.tableArn}/index/${GENERATIONS_CREATED_INDEX}`] }));
    api.route('GET /admin/stats', stats, 'admin');

    // Erasure may scan and delete in every table that holds personal data, delete photos under
    // the two photo prefixes and delete user accounts. A client's generations (decision 035): it
    // scans and redacts them and their licenses, reads each licensed image once to keep its pixel
    // hash (sharp, hence the memory), and deletes the files; a talent's payout details and
    // statements in the same table. Up to API Gateway's 29 seconds: a longer erasure is run again
    // and goes on where it stopped.
    const { photosBucket, imagesBucket } = props;
    const erase = new AppFunction(this, 'ErasePerson', {
      entry: 'functions/console/routes/erase-person/handler.ts',
      description: 'POST /admin/erasures: erases a person\'s data everywhere by email and records it (admins only)',
      environment: { USER_POOL_ID: userPool.userPoolId },
      timeout: Duration.seconds(29),
      memorySize: 1024,
      nodeModules: ['sharp'],
    })
      .bindTable(props.waitlistTable, 'WAITLIST_TABLE', ['Scan', 'DeleteItem'], { indexes: false })
      .bindTable(props.messagesTable, 'MESSAGES_TABLE', ['Scan', 'DeleteItem'], { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['Scan', 'Query', 'DeleteItem'], { indexes: false })
      .bindTable(platform.idempotency.table, 'IDEMPOTENCY_TABLE', ['Scan', 'DeleteItem'], { indexes: false })
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['Query', 'DeleteItem'], { indexes: true })
      .bindTable(this.erasures, 'ERASURES_TABLE', ['Scan', 'PutItem'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['Scan', 'Query', 'UpdateItem', 'DeleteItem'], { indexes: false })
      .bindTable(props.payoutsTable, 'PAYOUTS_TABLE', ['Query', 'UpdateItem', 'DeleteItem'], { indexes: false })
      .bindBucketObjects(photosBucket, 'PHOTOS_BUCKET', ['DeleteObject'], 'applications/*')
      .bindBucketObjects(imagesBucket, 'IMAGES_BUCKET', ['GetObject', 'DeleteObject'], `${GENERATION_IMAGES_PREFIX}*`, { listPrefix: GENERATION_IMAGES_PREFIX });
    erase.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [photosBucket.arnForObjects(`${PENDING_PREFIX}*`)] }));
    erase.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [photosBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['applications/*', `${PENDING_PREFIX}*`] } },
      }),
    );
    erase.addToRolePolicy(new PolicyStatement({ actions: ['cognito-idp:ListUsers', 'cognito-idp:AdminDeleteUser'], resources: [userPool.userPoolArn] }));
    // A talent's likeness model (functions/training/removal.ts, forget): its versions deleted on
    // Replicate, its training sets and samples, then its records (found by the byTalent index).
    erase
      .bindTable(props.trainingTable, 'TRAINING_TABLE', ['GetItem', 'DeleteItem'], { indexes: false })
      .bindBucketObjects(props.trainingBucket, 'TRAINING_BUCKET', ['DeleteObject'], `${SAMPLES_PREFIX}*`, { listPrefix: SAMPLES_PREFIX })
      .addEnvironment('REPLICATE_TOKEN_SECRET', config.replicateTokenSecretName ?? props.replicateToken.secretArn);
    erase.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [props.trainingsByTalentArn] }));
    erase.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [props.trainingBucket.arnForObjects(`${TRAINING_SETS_PREFIX}*`)] }));
    props.replicateToken.grantRead(erase);
    // A client's payments (functions/payments/erasure.ts): subscriptions canceled and the customer
    // deleted at Stripe, the customer's mapping marked erased, the payments (found by the
    // byAccount index) anonymised, the subscription mirror ended.
    erase
      .bindTable(props.paymentsTable, 'PAYMENTS_TABLE', ['GetItem', 'UpdateItem', 'DeleteItem'], { indexes: false })
      .addEnvironment('STRIPE_SECRET_KEY_SECRET', config.stripeSecretKeyName ?? props.stripeSecretKey.secretArn);
    erase.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.paymentsTable.tableArn}/index/${PAYMENTS_ACCOUNT_INDEX}`] }));
    props.stripeSecretKey.grantRead(erase);
    api.route('POST /admin/erasures', erase, 'admin');
  }
}
