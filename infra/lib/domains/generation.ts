import { ArnFormat, Duration, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { GENERATIONS_ACCOUNT_INDEX, GENERATIONS_CREATED_INDEX, GENERATION_IMAGES_PREFIX } from '../../../events/resource-names';
import { AppFunction, type AppFunctionProps, type TableAction } from '../platform/app-function';
import { PrivateBucket } from '../platform/buckets';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';
import { generationWorkflow } from '../workflows/generation';

export interface GenerationProps {
  /** Balances and the ledger the workflow reserves, commits and releases credits on. */
  accountsTable: ITable;
  /** The catalog: a talent's status, likeness controls and generation config. */
  talentTable: ITable;
  /** The founding applications: the likeness usage route reads a talent's standing from them. */
  applicationsTable: ITable;
}

/**
 * Generation and licensing (functions/generation, docs/generation.md, decision 027): the
 * Generations table, the private images bucket, the state machine that drives Replicate, and
 * their routes. A nested stack of its own (decisions 026, 032): the main stack has no room for
 * it under CloudFormation's 500 resources.
 */
export class Generation extends NestedStack {
  /** Generations and licenses; royalties' accruals and statements and likeness' contract history live here too. */
  readonly table: AppTable;
  readonly images: PrivateBucket;
  readonly replicateToken: ISecret;
  /** The Generation state machine: started with `{ generationId }`, the execution named by the id. */
  readonly workflow: StateMachine;

  constructor(scope: Stack, id: string, platform: Platform, props: GenerationProps) {
    super(scope, id, { description: 'Image generation through Replicate, credits spending and licenses' });
    const { api, config, idempotency, rateLimits } = platform;
    this.table = new AppTable(this, 'GenerationsTable', {
      partitionKey: 'pk',
      sortKey: 'sk',
      indexes: [
        { name: GENERATIONS_ACCOUNT_INDEX, partitionKey: 'accountKey', sortKey: 'createdAt' },
        { name: GENERATIONS_CREATED_INDEX, partitionKey: 'listKey', sortKey: 'createdAt' },
      ],
      timeToLiveAttribute: 'expiresAt',
      retain: config.retainData,
    });

    // Delivered images: private, reached only through short-lived presigned URLs.
    this.images = new PrivateBucket(this, 'GeneratedImages', {
      accessLogs: { bucket: platform.logBucket, prefix: 'generated-images/' },
      retain: config.retainData,
    });

    this.replicateToken = config.replicateTokenSecretName
      ? Secret.fromSecretNameV2(this, 'ReplicateToken', config.replicateTokenSecretName)
      : new Secret(this, 'ReplicateToken', {
          description: 'Replicate API token (put the real token here before generating)',
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });

    this.workflow = this.generationWorkflow(scope, platform, props);

    // The API routes. Each function is given exactly what it reads and writes; image URLs are
    // signed for the delivered files only (`generations/*`).
    const withAccount = (fn: AppFunction) => fn.bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    const signsImages = (fn: AppFunction) => fn.bindBucketObjects(this.images, 'IMAGES_BUCKET', ['GetObject'], `${GENERATION_IMAGES_PREFIX}*`);
    const starts = (fn: AppFunction) => {
      withAccount(fn)
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'])
        .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem', 'PutItem', 'UpdateItem'], { indexes: false })
        .addEnvironment('STATE_MACHINE_ARN', this.workflow.stateMachineArn)
        // The client's daily budget of generations the model fails (decision 038).
        .addEnvironment('MODEL_FAILURES_PER_DAY', String(config.modelFailuresPerDay));
      fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.workflow.stateMachineArn] }));
      rateLimits.bind(fn);
      idempotency.bind(fn);
      return fn;
    };

    const start = starts(
      new AppFunction(this, 'StartGeneration', { entry: 'functions/generation/routes/start-generation/handler.ts', description: 'POST /generations: a client starts a generation (202); the workflow reserves, checks and generates' }),
    );
    api.route('POST /generations', start, 'client');
    // The spec's function, at the original backend's path, so its clients keep working.
    const legacy = signsImages(
      starts(
        new AppFunction(this, 'ReplicateImageGeneration', { entry: 'functions/generation/routes/replicate-image-generation/handler.ts', description: "POST /functions/v1/replicate-image-generation: the spec's start and poll" }),
      ),
    );
    api.route('POST /functions/v1/replicate-image-generation', legacy, 'client');

    const get = signsImages(
      withAccount(
        new AppFunction(this, 'GetGeneration', { entry: 'functions/generation/routes/get-generation/handler.ts', description: 'GET /generations/{id}: the owner\'s generation with short-lived image URLs' }),
      ),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem', 'Query']);
    api.route('GET /generations/{id}', get, 'owner');
    const history = signsImages(
      withAccount(
        new AppFunction(this, 'ListMyGenerations', { entry: 'functions/generation/routes/list-my-generations/handler.ts', description: 'GET /me/generations: a client\'s generations, newest first' }),
      ),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['Query']);
    api.route('GET /me/generations', history, 'client');

    const license = new AppFunction(this, 'GetLicense', { entry: 'functions/generation/routes/get-license/handler.ts', description: 'GET /licenses/{id}: the public confirmation of a license (never the prompt)' })
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.route('GET /licenses/{id}', license, 'public');
    const download = signsImages(
      withAccount(
        new AppFunction(this, 'DownloadLicense', { entry: 'functions/generation/routes/download-license/handler.ts', description: 'GET /licenses/{id}/download: the owner\'s short-lived download of a licensed image' }),
      ),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.route('GET /licenses/{id}/download', download, 'owner');
    // The license page's thumbnail and the file check (decision 035): each reads the licensed
    // image with sharp; the thumbnail is kept beside the image once made, the image's pixel hash on
    // the license. The check is counted per network.
    const thumbnail = new AppFunction(this, 'GetLicenseThumbnail', {
      entry: 'functions/generation/routes/get-license-thumbnail/handler.ts',
      description: 'GET /licenses/{id}/thumbnail: a small WebP of a licensed image, for the public license page',
      memorySize: 1024,
      nodeModules: ['sharp'],
    })
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem'])
      .bindBucketObjects(this.images, 'IMAGES_BUCKET', ['GetObject', 'PutObject'], `${GENERATION_IMAGES_PREFIX}*`);
    api.route('GET /licenses/{id}/thumbnail', thumbnail, 'public');
    const checkFile = new AppFunction(this, 'CheckLicenseFile', {
      entry: 'functions/generation/routes/check-license-file/handler.ts',
      description: 'POST /licenses/{id}/check: compares an image file with the licensed image by their pixels',
      memorySize: 1024,
      nodeModules: ['sharp'],
    })
      .bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem', 'UpdateItem'])
      .bindBucketObjects(this.images, 'IMAGES_BUCKET', ['GetObject'], `${GENERATION_IMAGES_PREFIX}*`);
    rateLimits.bind(checkFile);
    api.route('POST /licenses/{id}/check', checkFile, 'public');

    const usage = withAccount(
      new AppFunction(this, 'GetLikenessUsage', { entry: 'functions/generation/routes/get-likeness-usage/handler.ts', description: 'GET /me/likeness-usage: images made with an accepted talent\'s likeness, by month' }),
    )
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'])
      .bindTable(this.table, 'GENERATIONS_TABLE', ['Query'], { indexes: false });
    api.route('GET /me/likeness-usage', usage, 'accepted-talent');

    // The console: the Generations resource, downloads and each talent's generation config.
    const adminList = new AppFunction(this, 'AdminListGenerations', { entry: 'functions/generation/routes/list-generations-admin/handler.ts', description: 'GET /admin/generations: generations by status, talent and client (admins only)' })
      .bindTable(this.table, 'GENERATIONS_TABLE', ['Query']);
    api.route('GET /admin/generations', adminList, 'admin');
    const adminGet = signsImages(
      new AppFunction(this, 'AdminGetGeneration', { entry: 'functions/generation/routes/get-generation-admin/handler.ts', description: 'GET /admin/generations/{id}: a generation with its workflow steps (admins only)' }),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.route('GET /admin/generations/{id}', adminGet, 'admin');
    const adminDownload = signsImages(
      new AppFunction(this, 'AdminDownloadLicense', { entry: 'functions/generation/routes/download-license-admin/handler.ts', description: 'GET /admin/licenses/{id}/download: any licensed image, for admins' }),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem']);
    api.route('GET /admin/licenses/{id}/download', adminDownload, 'admin');
    const getConfig = new AppFunction(this, 'GetGenerationConfig', { entry: 'functions/generation/routes/get-generation-config/handler.ts', description: 'GET /admin/talent/{id}/generation-config: a talent\'s model and trigger word (admins only)' })
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
    api.route('GET /admin/talent/{id}/generation-config', getConfig, 'admin');
    const setConfig = new AppFunction(this, 'SetGenerationConfig', { entry: 'functions/generation/routes/set-generation-config/handler.ts', description: 'PUT /admin/talent/{id}/generation-config: sets a seeded talent\'s model and trigger word (admins only)' })
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem']);
    api.route('PUT /admin/talent/{id}/generation-config', setConfig, 'admin');
  }

  /**
   * The Generation state machine and its task functions, and the Replicate webhook route that
   * resumes it (docs/generation.md).
   */
  private generationWorkflow(parent: Stack, platform: Platform, props: GenerationProps): StateMachine {
    const { api, config, idempotency, rateLimits } = platform;
    // A name of the main stack's, so functions of the machine can be granted it without a cycle
    // (and short: a nested stack's own name is long).
    const stateMachineName = `${parent.stackName}-Generation`;
    const stateMachineArn = Stack.of(this).formatArn({ service: 'states', resource: 'stateMachine', resourceName: stateMachineName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const token = config.replicateTokenSecretName ?? this.replicateToken.secretArn;
    const task = (id: string, entry: string, description: string, extra: Partial<AppFunctionProps> = {}, actions: TableAction[] = ['GetItem', 'UpdateItem']) =>
      new AppFunction(this, id, { entry, description, ...extra }).bindTable(this.table, 'GENERATIONS_TABLE', actions, { indexes: false });
    const replicate = (fn: AppFunction) => {
      fn.addEnvironment('REPLICATE_TOKEN_SECRET', token);
      this.replicateToken.grantRead(fn);
      return fn;
    };
    const ledger = (fn: AppFunction) => fn.bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem'], { indexes: false });

    const reserveCredits = ledger(
      task('ReserveCredits', 'functions/generation/steps/reserve-credits/handler.ts', 'Generation: reserves one credit per image, refusing cleanly when the balance is short'),
    );
    // The word lists, then the stage's classifier on Replicate (decision 039): a minute covers its
    // wait and the client's retries.
    const checkPolicy = replicate(
      task('CheckPolicy', 'functions/generation/steps/check-policy/handler.ts', 'Generation: the talent may be generated, and the prompt is outside their excluded industries', {
        timeout: Duration.seconds(60),
        environment: config.industryClassifierModel ? { INDUSTRY_CLASSIFIER_MODEL: config.industryClassifierModel } : {},
      }),
    ).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
    // Admission under Replicate's creation limit (decision 065): the bucket and the queue live in
    // the Generations table.
    const awaitAdmission = task(
      'AwaitAdmission',
      'functions/generation/steps/await-admission/handler.ts',
      "Generation: waits in the admission queue under Replicate's creation limit, and admits waiting starts in turn across clients",
      { timeout: Duration.seconds(30), environment: { REPLICATE_CREATIONS_PER_MINUTE: String(config.replicateCreationsPerMinute) } },
      ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'Query'],
    ).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
    const startPrediction = replicate(
      task('StartPrediction', 'functions/generation/steps/start-prediction/handler.ts', 'Generation: starts the Replicate prediction with the talent\'s model, our webhook and a deadline', {
        timeout: Duration.seconds(60),
        environment: { WEBHOOK_URL: `${api.api.apiEndpoint}/webhooks/replicate` },
      }),
    ).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
    const awaitPrediction = task(
      'AwaitPrediction',
      'functions/generation/steps/await-prediction/handler.ts',
      'Generation: stores the task token the completed webhook resumes with (resumes itself when the webhook came first)',
    );
    awaitPrediction.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [stateMachineArn] }));
    const pollPrediction = replicate(
      task('PollPrediction', 'functions/generation/steps/poll-prediction/handler.ts', 'Generation: reads the prediction from Replicate when no webhook came', { timeout: Duration.seconds(60) }),
    );
    const deliverImages = ledger(
      replicate(
        task(
          'DeliverImages',
          'functions/generation/steps/deliver-images/handler.ts',
          'Generation: copies the outputs with XMP provenance into the images bucket, licenses them, commits and releases the credits',
          { timeout: Duration.minutes(3), memorySize: 1024, nodeModules: ['sharp'], environment: { SITE_URL: platform.siteUrl } },
          ['GetItem', 'UpdateItem', 'PutItem'],
        ),
      ),
    )
      // The talent's generationCount, in the transaction that marks the generation delivered;
      // the talent's royalty plan, recorded on each accrual; their application's address, which
      // tells their own account's images (decision 036).
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'])
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
      .bindBucketObjects(this.images, 'IMAGES_BUCKET', ['PutObject'], `${GENERATION_IMAGES_PREFIX}*`);
    this.contentCredentials(deliverImages);
    const recordFailure = ledger(
      replicate(
        task('RecordFailure', 'functions/generation/steps/record-failure/handler.ts', 'Generation: records a failure, releases the reserved credits and cancels a running prediction', {
          timeout: Duration.seconds(60),
        }),
      ),
    );

    const logs = new LogGroup(this, 'GenerationWorkflowLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const machine = new StateMachine(this, 'GenerationWorkflow', {
      stateMachineName,
      ...generationWorkflow(this, 'States', { reserveCredits, checkPolicy, awaitAdmission, startPrediction, awaitPrediction, pollPrediction, deliverImages, recordFailure }),
      tracingEnabled: true,
      // Every event, without execution data (prompts are the client's).
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });

    // The Replicate webhook (public, signed): records the prediction and resumes the waiting execution.
    const webhook = replicate(
      new AppFunction(this, 'ReplicateWebhook', { entry: 'functions/generation/routes/replicate-webhook/handler.ts', description: 'POST /webhooks/replicate: verifies a Replicate webhook, records the prediction once and resumes the generation' }),
    ).bindTable(this.table, 'GENERATIONS_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
    webhook.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [machine.stateMachineArn] }));
    rateLimits.bind(webhook);
    // Each delivery is applied once, keyed by its webhook-id (decision 009).
    idempotency.bind(webhook);
    // Public, but only Replicate can sign a delivery: the access matrix expects a 2xx for nobody.
    api.route('POST /webhooks/replicate', webhook, 'signed');
    return machine;
  }

  /**
   * Content Credentials (decision 062): the key that signs the C2PA manifest of every delivered
   * image, which only the delivery may use and nobody can read (it never leaves KMS), and the
   * secret that holds its certificate chain (PEM, end-entity first), put there once a CA issued it.
   */
  private contentCredentials(deliverImages: AppFunction): void {
    const key = new Key(this, 'ContentCredentialsKey', {
      description: 'Signs the Content Credentials (C2PA) of delivered images: RSA-PSS SHA-256',
      keySpec: KeySpec.RSA_2048,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const chain = new Secret(this, 'ContentCredentialsChain', {
      description: "The Content Credentials signing key's certificate chain, PEM, end-entity first (put the issued chain here)",
    });
    key.grant(deliverImages, 'kms:Sign');
    chain.grantRead(deliverImages);
    deliverImages.addEnvironment('CREDENTIALS_KEY_ID', key.keyArn).addEnvironment('CREDENTIALS_CHAIN_SECRET', chain.secretArn);
  }
}
