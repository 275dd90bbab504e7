import { ArnFormat, Duration, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { AppFunction, type AppFunctionProps, type TableAction } from '../app-function';
import { generationWorkflow } from '../workflows/generation';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ACCOUNTS_LIST_INDEX, GENERATIONS_ACCOUNT_INDEX as ACCOUNT_INDEX, GENERATIONS_CREATED_INDEX as CREATED_INDEX, GENERATION_IMAGES_PREFIX } from '../../../events/resource-names';
import type { EmailSending } from './email';
import type { MarketplaceApi } from './http-api';
import { Royalties } from './royalties';
import type { IdempotencyStore } from './idempotency';
import type { RateLimits } from './rate-limits';

export interface GenerationProps {
  api: MarketplaceApi;
  rateLimits: RateLimits;
  idempotency: IdempotencyStore;
  /** Balances and the ledger the workflow reserves, commits and releases credits on. */
  accountsTable: ITable;
  /** The catalog: a talent's status, likeness controls and generation config. */
  talentTable: ITable;
  /** The founding applications: the likeness usage route reads a talent's standing from them. */
  applicationsTable: ITable;
  /** The site, for license links written into the images. */
  siteUrl: string;
  /** Secrets Manager name of the Replicate API token; without it the stack creates the secret, to be filled in. */
  replicateTokenSecretName?: string;
  logBucket: IBucket;
  retainData: boolean;
  /** SES sending, for the royalties' and likeness notices. */
  email: EmailSending;
  /** A likeness removal's notice, in seconds (stage config). */
  removalNoticeSeconds: number;
}

/**
 * Generation and licensing (docs/generation.md, decision 027): the Generations table, the
 * private images bucket, the state machine that drives Replicate, and their routes. It is a
 * nested stack of its own (decision 026): with its functions and routes the main stack would
 * pass CloudFormation's 500 resources.
 */
export class Generation extends NestedStack {
  readonly table: Table;
  readonly images: Bucket;
  readonly replicateToken: ISecret;
  /** The Generation state machine: started with `{ generationId }`, the execution named by the id. */
  readonly workflow: StateMachine;

  constructor(scope: Stack, id: string, props: GenerationProps) {
    super(scope, id, { description: 'Image generation through Replicate, credits spending and licenses' });
    this.table = new Table(this, 'GenerationsTable', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: 'expiresAt',
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: ACCOUNT_INDEX,
      partitionKey: { name: 'accountKey', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: CREATED_INDEX,
      partitionKey: { name: 'listKey', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });

    // Delivered images: private, reached only through short-lived presigned URLs.
    this.images = new Bucket(this, 'GeneratedImages', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'generated-images/',
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retainData,
    });

    this.replicateToken = props.replicateTokenSecretName
      ? Secret.fromSecretNameV2(this, 'ReplicateToken', props.replicateTokenSecretName)
      : new Secret(this, 'ReplicateToken', {
          description: 'Replicate API token (put the real token here before generating)',
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });

    // --- The workflow: task functions, state machine, webhook, monthly allowance (generation-workflow) ---
    this.workflow = this.generationWorkflow(scope, props);

    // --- The API routes (generation-api) ---
    // Each function is given exactly what it reads and writes; image URLs are signed for the
    // delivered files only (`generations/*`).
    const { api } = props;
    const route = (id: string, entry: string, description: string) => new AppFunction(this, id, { entry: `functions/generation/routes/${entry}.ts`, description });
    const withAccount = (fn: AppFunction) => fn.bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    const signsImages = (fn: AppFunction) => fn.bindBucketObjects(this.images, 'IMAGES_BUCKET', ['GetObject'], `${GENERATION_IMAGES_PREFIX}*`);
    const starts = (fn: AppFunction) => {
      withAccount(fn)
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'])
        .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem', 'PutItem', 'UpdateItem'], { indexes: false })
        .addEnvironment('STATE_MACHINE_ARN', this.workflow.stateMachineArn);
      fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.workflow.stateMachineArn] }));
      props.rateLimits.bind(fn);
      props.idempotency.bind(fn);
      return fn;
    };

    const start = starts(route('StartGeneration', 'start-generation/handler', 'POST /generations: a client starts a generation (202); the workflow reserves, checks and generates'));
    api.userRoute('/generations', HttpMethod.POST, start, 'StartGeneration', 'client');
    // The spec's function, at the original backend's path, so its clients keep working.
    const legacy = signsImages(starts(route('ReplicateImageGeneration', 'replicate-image-generation/handler', "POST /functions/v1/replicate-image-generation: the spec's start and poll")));
    api.userRoute('/functions/v1/replicate-image-generation', HttpMethod.POST, legacy, 'ReplicateImageGeneration', 'client');

    const get = signsImages(withAccount(route('GetGeneration', 'get-generation/handler', 'GET /generations/{id}: the owner\'s generation with short-lived image URLs')))
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.userRoute('/generations/{id}', HttpMethod.GET, get, 'GetGeneration', 'owner');
    const history = signsImages(withAccount(route('ListMyGenerations', 'list-my-generations/handler', 'GET /me/generations: a client\'s generations, newest first')))
      .bindTable(this.table, 'GENERATIONS_TABLE', ['Query']);
    api.userRoute('/me/generations', HttpMethod.GET, history, 'ListMyGenerations', 'client');

    const license = route('GetLicense', 'get-license/handler', 'GET /licenses/{id}: the public confirmation of a license (never the prompt)')
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.publicRoute('/licenses/{id}', HttpMethod.GET, license, 'GetLicense');
    const download = signsImages(withAccount(route('DownloadLicense', 'download-license/handler', 'GET /licenses/{id}/download: the owner\'s short-lived download of a licensed image')))
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.userRoute('/licenses/{id}/download', HttpMethod.GET, download, 'DownloadLicense', 'owner');

    const usage = withAccount(route('GetLikenessUsage', 'get-likeness-usage/handler', 'GET /me/likeness-usage: images made with an accepted talent\'s likeness, by month'))
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'])
      .bindTable(this.table, 'GENERATIONS_TABLE', ['Query'], { indexes: false });
    api.userRoute('/me/likeness-usage', HttpMethod.GET, usage, 'GetLikenessUsage', 'accepted-talent');

    // The console: the Generations resource, downloads and each talent's generation config.
    const adminList = route('AdminListGenerations', 'list-generations-admin/handler', 'GET /admin/generations: generations by status, talent and client (admins only)')
      .bindTable(this.table, 'GENERATIONS_TABLE', ['Query']);
    api.adminRoute('/admin/generations', HttpMethod.GET, adminList, 'AdminListGenerations');
    const adminGet = signsImages(route('AdminGetGeneration', 'get-generation-admin/handler', 'GET /admin/generations/{id}: a generation with its workflow steps (admins only)'))
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.adminRoute('/admin/generations/{id}', HttpMethod.GET, adminGet, 'AdminGetGeneration');
    const adminDownload = signsImages(route('AdminDownloadLicense', 'download-license-admin/handler', 'GET /admin/licenses/{id}/download: any licensed image, for admins'))
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.adminRoute('/admin/licenses/{id}/download', HttpMethod.GET, adminDownload, 'AdminDownloadLicense');
    const generationConfig = route('GenerationConfig', 'generation-config/handler', 'GET and PUT /admin/talent/{id}/generation-config: a talent\'s model and trigger word (admins only)')
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem']);
    api.adminRoute('/admin/talent/{id}/generation-config', HttpMethod.GET, generationConfig, 'GetGenerationConfig');
    api.adminRoute('/admin/talent/{id}/generation-config', HttpMethod.PUT, generationConfig, 'PutGenerationConfig');

    // Royalties, statements and likeness controls: on this stack's table (docs/royalties.md).
    new Royalties(this, 'Royalties', {
      api,
      rateLimits: props.rateLimits,
      idempotency: props.idempotency,
      email: props.email,
      accountsTable: props.accountsTable,
      talentTable: props.talentTable,
      applicationsTable: props.applicationsTable,
      generationsTable: this.table,
      siteUrl: props.siteUrl,
      removalNoticeSeconds: props.removalNoticeSeconds,
    });
  }
  /**
   * The Generation state machine and its task functions, the Replicate webhook route that
   * resumes it, and the monthly allowance (docs/generation.md).
   */
  private generationWorkflow(parent: Stack, props: GenerationProps): StateMachine {
    // A name of the main stack's, so functions of the machine can be granted it without a cycle
    // (and short: a nested stack's own name is long).
    const stateMachineName = `${parent.stackName}-Generation`;
    const stateMachineArn = Stack.of(this).formatArn({ service: 'states', resource: 'stateMachine', resourceName: stateMachineName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const token = props.replicateTokenSecretName ?? this.replicateToken.secretArn;
    const task = (id: string, step: string, description: string, extra: Partial<AppFunctionProps> = {}, actions: TableAction[] = ['GetItem', 'UpdateItem']) =>
      new AppFunction(this, id, { entry: `functions/generation/steps/${step}/handler.ts`, description, ...extra }).bindTable(this.table, 'GENERATIONS_TABLE', actions, { indexes: false });
    const replicate = (fn: AppFunction) => {
      fn.addEnvironment('REPLICATE_TOKEN_SECRET', token);
      this.replicateToken.grantRead(fn);
      return fn;
    };
    const ledger = (fn: AppFunction) => fn.bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem'], { indexes: false });

    const reserveCredits = ledger(task('ReserveCredits', 'reserve-credits', 'Generation: reserves one credit per image, refusing cleanly when the balance is short'));
    const checkPolicy = task('CheckPolicy', 'check-policy', 'Generation: the talent may be generated, and the prompt is outside their excluded industries').bindTable(
      props.talentTable,
      'TALENT_TABLE',
      ['GetItem'],
    );
    const startPrediction = replicate(
      task('StartPrediction', 'start-prediction', 'Generation: starts the Replicate prediction with the talent\'s model, our webhook and a deadline', {
        timeout: Duration.seconds(60),
        environment: { WEBHOOK_URL: `${props.api.api.apiEndpoint}/webhooks/replicate` },
      }),
    ).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
    const awaitPrediction = task('AwaitPrediction', 'await-prediction', 'Generation: stores the task token the completed webhook resumes with (resumes itself when the webhook came first)');
    awaitPrediction.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [stateMachineArn] }));
    const pollPrediction = replicate(task('PollPrediction', 'poll-prediction', 'Generation: reads the prediction from Replicate when no webhook came', { timeout: Duration.seconds(60) }));
    const deliverImages = ledger(
      replicate(
        task('DeliverImages', 'deliver-images', 'Generation: copies the outputs with XMP provenance into the images bucket, licenses them, commits and releases the credits', {
          timeout: Duration.minutes(3),
          memorySize: 1024,
          nodeModules: ['sharp'],
          environment: { SITE_URL: props.siteUrl },
        }, ['GetItem', 'UpdateItem', 'PutItem']),
      ),
    )
      // The talent's generationCount, in the transaction that marks the generation delivered;
      // the talent's royalty plan, recorded on each accrual.
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'])
      .bindBucketObjects(this.images, 'IMAGES_BUCKET', ['PutObject'], 'generations/*');
    const recordFailure = ledger(replicate(task('RecordFailure', 'record-failure', 'Generation: records a failure, releases the reserved credits and cancels a running prediction', { timeout: Duration.seconds(60) })));

    const logs = new LogGroup(this, 'GenerationWorkflowLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const machine = new StateMachine(this, 'GenerationWorkflow', {
      stateMachineName,
      ...generationWorkflow(this, 'States', { reserveCredits, checkPolicy, startPrediction, awaitPrediction, pollPrediction, deliverImages, recordFailure }),
      tracingEnabled: true,
      // Every event, without execution data (prompts are the client's).
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });

    // The Replicate webhook (public, signed): records the prediction and resumes the waiting execution.
    const webhook = replicate(
      new AppFunction(this, 'ReplicateWebhook', {
        entry: 'functions/generation/routes/replicate-webhook/handler.ts',
        description: 'POST /webhooks/replicate: verifies a Replicate webhook, records the prediction once and resumes the generation',
      }),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
    webhook.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [machine.stateMachineArn] }));
    props.rateLimits.bind(webhook);
    // Each delivery is applied once (its webhook-id's idempotency record).
    props.idempotency.bind(webhook);
    // Public, but only Replicate can sign a delivery: the access matrix expects a 2xx for nobody.
    props.api.signedRoute('/webhooks/replicate', HttpMethod.POST, webhook, 'ReplicateWebhook');

    // The monthly allowance of paid plans, on the 1st at 00:05 UTC.
    const allowance = new AppFunction(this, 'MonthlyAllowance', {
      entry: 'functions/accounts/triggers/monthly-allowance/handler.ts',
      description: 'Grants each client on a paid plan its monthly credits, once a month',
      timeout: Duration.minutes(5),
    })
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'BatchGetItem'], { indexes: false });
    allowance.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.accountsTable.tableArn}/index/${ACCOUNTS_LIST_INDEX}`] }));
    new Rule(this, 'MonthlyAllowanceSchedule', {
      description: 'The 1st of each month, 00:05 UTC: the monthly credits of paid plans',
      schedule: Schedule.cron({ minute: '5', hour: '0', day: '1', month: '*', year: '*' }),
      targets: [new LambdaFunction(allowance, { retryAttempts: 8, maxEventAge: Duration.hours(6) })],
    });
    return machine;
  }
}
