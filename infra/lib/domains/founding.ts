import { ArnFormat, Duration, NestedStack, RemovalPolicy, Size, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SfnStateMachine } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { HttpMethods, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  DELETION_BACKSTOP_DAYS,
  DELETION_TAG,
  FOUNDING_APPLICATION_SUBMITTED,
  FOUNDING_IDENTITY_CHECK_REQUESTED,
  PENDING_PREFIX,
  PENDING_UPLOAD_DAYS,
  UPLOAD_URL_TTL_SECONDS,
} from '../../../events/founding';
import { LIKENESS_REMOVED } from '../../../events/likeness-events';
import { EVENT_SOURCE } from '../../../events/product';
import { AppFunction, type AppFunctionProps } from '../platform/app-function';
import { PrivateBucket } from '../platform/buckets';
import { consumeEvents, retriedRule } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';
import { foundingApplicationWorkflow } from '../workflows/founding-application';

export interface FoundingProps {
  /** The talent catalog, where accepted applicants are created. */
  talentTable: ITable;
}

/**
 * Founding-talent applications (functions/founding, docs/founding-pipeline.md): the private
 * photos bucket the browser uploads to with presigned URLs, the applications table, the public
 * upload and signup routes, the upload recorder, the admin review routes, and the review
 * workflow.
 */
export class Founding extends Construct {
  readonly table: AppTable;
  readonly bucket: PrivateBucket;
  /** The FoundingApplication state machine: the proof of person's trigger resumes its AwaitIdentity step. */
  readonly workflowArn: string;
  private readonly platform: Platform;
  /** The workflow's DeletePhotos function (also MarkPhotosForDeletion, which redacts the ID verification). */
  private deletePhotosStep!: AppFunction;

  constructor(scope: Construct, id: string, platform: Platform, props: FoundingProps) {
    super(scope, id);
    this.platform = platform;
    const { api, bus, email, idempotency, rateLimits, config } = platform;

    this.bucket = new PrivateBucket(this, 'Photos', {
      eventBridgeEnabled: true,
      accessLogs: { bucket: platform.logBucket, prefix: 'founding-photos/' },
      cors: [
        {
          allowedMethods: [HttpMethods.PUT],
          // Only the public site's pages may PUT photos.
          allowedOrigins: [...new Set([platform.siteUrl, ...config.siteOrigins])],
          allowedHeaders: ['content-type', 'if-none-match'],
          exposedHeaders: ['etag'],
          maxAge: UPLOAD_URL_TTL_SECONDS,
        },
      ],
      lifecycleRules: [
        { id: 'expire-pending-uploads', prefix: PENDING_PREFIX, expiration: Duration.days(PENDING_UPLOAD_DAYS) },
        // The backstop of the workflow's deletion (decision 017): photos of rejected applications
        // are tagged when rejected, and expire even if the workflow never reaches DeletePhotos.
        {
          id: 'expire-photos-marked-for-deletion',
          prefix: 'applications/',
          tagFilters: { [DELETION_TAG.key]: DELETION_TAG.value },
          expiration: Duration.days(DELETION_BACKSTOP_DAYS),
        },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      retain: config.retainData,
    });

    this.table = new AppTable(this, 'ApplicationsTable', {
      partitionKey: 'pk',
      sortKey: 'sk',
      // Applications by submission time, for the review console.
      indexes: [{ name: 'byList', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
      // Issued upload keys and upload records expire with the pending objects.
      timeToLiveAttribute: 'expiresAt',
      retain: config.retainData,
    });

    // ---- Public API -----------------------------------------------------------------------
    const uploads = new AppFunction(this, 'CreateUploads', { entry: 'functions/founding/routes/create-founding-uploads/handler.ts', description: 'POST /founding-uploads: presigned PUT URLs for an applicant\'s photos' })
      // Issued keys (PutItem) and the session's conditional counter (UpdateItem; GetItem to say why it refused).
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['PutItem', 'UpdateItem', 'GetItem'], { indexes: false })
      // Signing a PUT URL needs the right to PUT; nothing else, and only under pending/.
      .bindBucketObjects(this.bucket, 'PHOTOS_BUCKET', ['PutObject'], `${PENDING_PREFIX}*`);
    idempotency.bind(uploads);
    rateLimits.bind(uploads);
    api.route('POST /founding-uploads', uploads, 'public');

    const signup = new AppFunction(this, 'Signup', {
      entry: 'functions/founding/routes/founding-talent-signup/handler.ts',
      description: 'POST /founding-talent-signup: checks the uploads, stores the application awaiting confirmation and emails the link',
      timeout: Duration.seconds(29),
      memorySize: 512,
    })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'Query', 'PutItem', 'UpdateItem'], { indexes: false })
      .bindBucketObjects(this.bucket, 'PHOTOS_BUCKET', ['GetObject'], `${PENDING_PREFIX}*`, { listPrefix: PENDING_PREFIX })
      .bindBus(bus)
      .bindEmail(email);
    idempotency.bind(signup);
    rateLimits.bind(signup);
    // The address confirmation (decision 013): the link's page posts its token here.
    const confirm = new AppFunction(this, 'Confirm', { entry: 'functions/founding/routes/confirm-founding-application/handler.ts', description: 'POST /founding-confirm: confirms an applicant\'s address and submits the application for review' })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'PutItem', 'UpdateItem'], { indexes: false })
      .bindBus(bus);
    rateLimits.bind(confirm);
    api.route('POST /founding-confirm', confirm, 'public');
    api.route('POST /founding-talent-signup', signup, 'public');
    // The original backend's path, so its clients keep working.
    api.route('POST /functions/v1/founding-talent-signup', signup, 'public');

    const spots = new AppFunction(this, 'GetSpots', { entry: 'functions/founding/routes/get-founding-spots/handler.ts', description: 'GET /founding-spots: founding spots taken and left' })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem']);
    api.route('GET /founding-spots', spots, 'public');

    // ---- Upload events --------------------------------------------------------------------
    const recordUpload = new AppFunction(this, 'RecordUpload', {
      entry: 'functions/founding/triggers/record-upload/handler.ts',
      description: 'Records each uploaded photo or zip against the applicant\'s draft, once',
      timeout: Duration.seconds(30),
    })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['PutItem'])
      .bindBucketObjects(this.bucket, 'PHOTOS_BUCKET', ['GetObject'], `${PENDING_PREFIX}*`);
    // S3 puts its events on the account's default bus.
    retriedRule(this, 'OnPhotoUploaded', {
      eventBus: EventBus.fromEventBusName(this, 'DefaultBus', 'default'),
      description: 'S3 Object Created under pending/ in the photos bucket -> record the upload',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [this.bucket.bucketName] }, object: { key: [{ prefix: PENDING_PREFIX }] } },
      },
      deadLetterId: 'RecordUploadDeadLetters',
      deadLetterOf: 'the upload-recording rule target',
      target: (retry) => new LambdaFunction(recordUpload, retry),
    });

    // ---- Admin API ------------------------------------------------------------------------
    const list = new AppFunction(this, 'ListApplications', { entry: 'functions/founding/routes/list-applications/handler.ts', description: 'GET /admin/applications: applications for review (admins only)' });
    // It reads the byList index only, never the base table's drafts and per-address locks.
    list.addEnvironment('APPLICATIONS_TABLE', this.table.tableName);
    list.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${this.table.tableArn}/index/byList`] }));
    api.route('GET /admin/applications', list, 'admin');

    const get = new AppFunction(this, 'GetApplication', { entry: 'functions/founding/routes/get-application/handler.ts', description: 'GET /admin/applications/{id}: one application with short-lived photo URLs (admins only)' })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'Query'], { indexes: false })
      .bindBucketObjects(this.bucket, 'PHOTOS_BUCKET', ['GetObject'], 'applications/*');
    api.route('GET /admin/applications/{id}', get, 'admin');

    const decide = new AppFunction(this, 'DecideApplication', { entry: 'functions/founding/routes/decide-application/handler.ts', description: 'POST /admin/applications/{id}/decision: records a decision and resumes the review workflow (admins only)' })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'])
      .bindBus(bus);
    api.route('POST /admin/applications/{id}/decision', decide, 'admin');

    // The decision dialog's preview of the applicant's email, rendered by the sending code.
    const preview = new AppFunction(this, 'PreviewDecisionEmail', {
      entry: 'functions/founding/routes/preview-decision-email/handler.ts',
      description: 'POST /admin/applications/{id}/email-preview: the email a decision would send (admins only)',
      environment: { SITE_URL: platform.siteUrl },
    }).bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem']);
    api.route('POST /admin/applications/{id}/email-preview', preview, 'admin');

    const workflow = this.reviewWorkflow(props);
    this.workflowArn = workflow.stateMachineArn;
    // Only SendTaskSuccess: a decision resumes the review wait, nothing else.
    decide.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [workflow.stateMachineArn] }));

    // An admin's retry of a failed application starts a new execution at the failed step (decision 017).
    const retry = new AppFunction(this, 'RetryApplication', {
      entry: 'functions/founding/routes/retry-application/handler.ts',
      description: 'POST /admin/applications/{id}/retry: resumes a failed application\'s workflow at the failed step (admins only)',
      environment: { STATE_MACHINE_ARN: workflow.stateMachineArn },
    }).bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem']);
    retry.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [workflow.stateMachineArn] }));
    api.route('POST /admin/applications/{id}/retry', retry, 'admin');
  }

  /**
   * The proof of person, once the Payments stack holds the Stripe secret key (built after this
   * construct: the accounts it needs are built from this one's table): a nested stack for room,
   * beside this one in the main stack (decision 051), and the workflow's photo deletion step, which
   * redacts a refused application's ID verification at Stripe.
   */
  verifyIdentities(props: { stripeSecretKey: ISecret }): void {
    const { config } = this.platform;
    this.deletePhotosStep.addEnvironment('STRIPE_SECRET_KEY_SECRET', config.stripeSecretKeyName ?? props.stripeSecretKey.secretArn);
    props.stripeSecretKey.grantRead(this.deletePhotosStep);
    new FoundingIdentity(Stack.of(this), 'Identity', this.platform, {
      applicationsTable: this.table,
      photosBucket: this.bucket,
      workflowArn: this.workflowArn,
      stripeSecretKey: props.stripeSecretKey,
    });
  }

  /** The FoundingApplication state machine, its task functions and the rule that starts it. */
  private reviewWorkflow(props: FoundingProps): StateMachine {
    const { platform } = this;
    const { bus, email, idempotency, config } = platform;
    const stack = Stack.of(this);
    // A name, so await-review's grant can name the machine without referring to it (a cycle).
    const stateMachineName = `${stack.stackName}-FoundingApplication`;
    const stateMachineArn = stack.formatArn({ service: 'states', resource: 'stateMachine', resourceName: stateMachineName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const task = (id: string, step: string, description: string, extra: Partial<AppFunctionProps> = {}) =>
      new AppFunction(this, id, { entry: `functions/founding/steps/${step}/handler.ts`, description, ...extra });

    const validate = task('ValidatePhotos', 'validate-photos', 'Workflow: checks every photo by its bytes and stores accepted ones re-encoded without metadata', {
      memorySize: 3008,
      timeout: Duration.minutes(5),
      ephemeralStorageSize: Size.mebibytes(2048),
      nodeModules: ['sharp'],
      // Its own few instances: a burst of applications queues here instead of taking the
      // account's concurrency from the API.
      reservedConcurrentExecutions: config.validatorConcurrency,
    })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'])
      .bindBucketObjects(this.bucket, 'PHOTOS_BUCKET', ['GetObject', 'DeleteObject'], `${PENDING_PREFIX}*`);
    validate.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.bucket.arnForObjects('applications/*')] }));

    const sendEmail = task('SendApplicationEmail', 'send-application-email', 'Workflow: confirmation, invalid, acceptance, rejection and reminder emails, once each', {
      timeout: Duration.seconds(15),
      // Reviewers are emailed at the team's address, with links to the console.
      environment: { REVIEWERS_EMAIL: config.contactEmail, ADMIN_URL: platform.adminUrl },
    })
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'])
      .bindEmail(email);
    idempotency.bind(sendEmail);

    const recordEmailFailure = task('RecordEmailFailure', 'record-email-failure', 'Workflow: records an application email that could not be sent').bindTable(
      this.table,
      'APPLICATIONS_TABLE',
      ['UpdateItem', 'PutItem', 'ConditionCheckItem'],
    );

    const awaitReview = task('AwaitReview', 'await-review', 'Workflow: stores the review task token so the decision API can resume the execution').bindTable(
      this.table,
      'APPLICATIONS_TABLE',
      ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
    );
    awaitReview.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess', 'states:SendTaskFailure'], resources: [stateMachineArn] }));

    const awaitIdentity = task('AwaitIdentity', 'await-identity', 'Workflow: stores the identity task token; the check-faces trigger resumes the execution')
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'])
      .bindBus(bus);
    awaitIdentity.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [stateMachineArn] }));

    const allocateSpot = task('AllocateSpot', 'allocate-spot', 'Workflow: takes one of the 30 founding spots, at most once per application').bindTable(
      this.table,
      'APPLICATIONS_TABLE',
      ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
    );

    const createTalent = task('CreateTalent', 'create-talent', 'Workflow: creates the accepted applicant in the talent catalog, once')
      .bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'])
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'PutItem']);

    const inviteTalent = task('InviteTalent', 'invite-talent', 'Workflow: invites the accepted applicant into the user pool as talent', {
      environment: { USER_POOL_ID: platform.userPool.userPoolId },
    }).bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem']);
    inviteTalent.addToRolePolicy(
      new PolicyStatement({
        actions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminAddUserToGroup'],
        resources: [platform.userPool.userPoolArn],
      }),
    );

    const recordFailure = task('RecordFailure', 'record-failure', 'Workflow: records a step that failed for good (status failed, the step, the error name)').bindTable(
      this.table,
      'APPLICATIONS_TABLE',
      ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
    );

    const deletePhotos = task('DeletePhotos', 'delete-photos', 'Workflow: tags a rejected application\'s photos for deletion, deletes them after the retention period (an invalid one\'s at once)', {
      timeout: Duration.seconds(60),
    }).bindTable(this.table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'DeleteItem']);
    this.deletePhotosStep = deletePhotos;
    deletePhotos.addEnvironment('PHOTOS_BUCKET', this.bucket.bucketName);
    deletePhotos.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [this.bucket.arnForObjects('applications/*'), this.bucket.arnForObjects(`${PENDING_PREFIX}*`)] }),
    );
    deletePhotos.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObjectTagging'], resources: [this.bucket.arnForObjects('applications/*')] }));
    deletePhotos.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['applications/*', `${PENDING_PREFIX}*`] } },
      }),
    );

    const logs = new LogGroup(this, 'WorkflowLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const workflow = new StateMachine(this, 'Workflow', {
      stateMachineName,
      // Definition and comment; CDK grants the machine's role lambda:InvokeFunction on each step's function.
      ...foundingApplicationWorkflow(this, 'WorkflowStates', {
        validatePhotos: validate,
        sendEmail,
        recordEmailFailure,
        awaitReview,
        awaitIdentity,
        allocateSpot,
        createTalent,
        inviteTalent,
        deletePhotos,
        recordFailure,
      }),
      // Execution data holds applicants' answers: logged by event and state only.
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });

    retriedRule(this, 'OnSubmitted', {
      eventBus: bus,
      description: 'FoundingApplication.Submitted -> the FoundingApplication state machine',
      eventPattern: { source: [EVENT_SOURCE], detailType: [FOUNDING_APPLICATION_SUBMITTED] },
      deadLetterId: 'StartWorkflowDeadLetters',
      deadLetterOf: 'the workflow-starting rule target',
      target: (retry) => new SfnStateMachine(workflow, { input: RuleTargetInput.fromEventPath('$.detail'), ...retry }),
    });
    return workflow;
  }
}

interface FoundingIdentityProps {
  /** The founding applications: their proof of person is stored on them. */
  applicationsTable: ITable;
  /** The private photos bucket: the selfie, the sealed face analyses and replacement photos live under each application's prefix. */
  photosBucket: IBucket;
  /** The FoundingApplication state machine, whose AwaitIdentity step the face checks resume. */
  workflowArn: string;
  /** The platform's Stripe secret key (the Payments stack's): VerificationSessions, their selfies, redaction. */
  stripeSecretKey: ISecret;
}

/** The face analysis library and its native image decoder, installed beside the bundle (docs/identity.md "Lambda"). */
const FACES_MODULES = ['@vladmandic/human', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', 'sharp'];

/**
 * The proof of person (functions/founding/identity, docs/identity.md): the applicant's routes
 * reached with the identity token, the ID verification with Stripe Identity and its signed
 * webhook, the talent's face data routes, and the check-faces trigger that analyses the photos
 * and the verified selfie, asks for replacements and resumes the review workflow. The founding
 * wing's code, built by the Founding construct (decision 051) in a nested stack of its own
 * (decision 032): the main stack has no room for it.
 */
class FoundingIdentity extends NestedStack {
  /** Encrypts face analyses (biometric data) before they are stored. */
  readonly key: Secret;

  constructor(scope: Stack, id: string, platform: Platform, props: FoundingIdentityProps) {
    super(scope, id, { description: 'Proof of person: consent, verified ID and face checks of founding applications' });
    const { api, bus, email, rateLimits } = platform;
    const { applicationsTable: table, photosBucket: bucket } = props;
    this.key = new Secret(this, 'IdentityKey', {
      description: "Encrypts applicants' face analyses (biometric data) before they are stored",
      generateSecretString: { excludePunctuation: true, passwordLength: 64 },
    });
    const identityObjects = bucket.arnForObjects('applications/*/identity/*');
    // Withdrawing the face data consent deletes the selfie and the sealed analyses (docs/identity.md, "Withdrawal").
    const deleteFaceData = (fn: AppFunction) => {
      fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [identityObjects] }));
      fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': ['applications/*/identity/*'] } } }));
    };

    // The applicant's routes, by identity token: one function per route, each with the grants they all had.
    const applicantRoute = (fnId: string, path: string, folder: string, description: string) => {
      const fn = new AppFunction(this, fnId, { entry: `functions/founding/routes/${folder}/handler.ts`, description: `POST /founding-identity${path}: ${description}` })
        .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'], { indexes: false })
        // Thumbnails signed for the replace page; presigned PUTs only under the identity prefix.
        .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['GetObject'], 'applications/*')
        .bindBus(bus);
      fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [identityObjects] }));
      deleteFaceData(fn);
      rateLimits.bind(fn);
      api.route(`POST /founding-identity${path}`, fn, 'public');
    };
    applicantRoute('IdentityStatus', '', 'get-identity-status', 'where the applicant stands, with their photos on the replace page');
    applicantRoute('IdentityConsent', '/consent', 'give-identity-consent', 'the face data consent and the signed consent');
    applicantRoute('IdentityWithdrawConsent', '/withdraw-consent', 'withdraw-identity-consent', 'takes back the face data consent and deletes the face data');
    applicantRoute('IdentityReplacementUploads', '/replacement-uploads', 'request-replacement-uploads', 'presigned PUTs for replacement photos');
    applicantRoute('IdentityReplacements', '/replacements', 'submit-replacements', 'the photos to drop and the uploads that replace them');

    // The talent portal: the face data consent of the application the account came from, and its withdrawal.
    const faceDataRoute = (fnId: string, route: `${'GET' | 'POST'} /me/face-data${string}`, folder: string, description: string) => {
      const fn = new AppFunction(this, fnId, { entry: `functions/founding/routes/${folder}/handler.ts`, description: `${route}: ${description}` })
        .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'], { indexes: false })
        .bindBus(bus);
      fn.addEnvironment('PHOTOS_BUCKET', bucket.bucketName);
      deleteFaceData(fn);
      rateLimits.bind(fn);
      api.route(route, fn, 'talent');
    };
    faceDataRoute('MyFaceData', 'GET /me/face-data', 'get-my-face-data', "a talent's face data consent");
    faceDataRoute('WithdrawMyFaceData', 'POST /me/face-data/withdraw', 'withdraw-my-face-data', "a talent withdraws their face data consent");

    // A function that calls Stripe with the platform's key (as the payments and payouts stacks do).
    const withStripe = (fn: AppFunction) => {
      fn.addEnvironment('STRIPE_SECRET_KEY_SECRET', platform.config.stripeSecretKeyName ?? props.stripeSecretKey.secretArn);
      props.stripeSecretKey.grantRead(fn);
      return fn;
    };

    // The ID verification (docs/identity.md, "Verified identity"): Stripe's hosted page for the
    // application's own VerificationSession, recorded (with its index item) before the answer.
    const verification = withStripe(
      new AppFunction(this, 'IdentityVerification', {
        entry: 'functions/founding/routes/start-identity-verification/handler.ts',
        description: "POST /founding-identity/verification: opens the application's Stripe Identity VerificationSession (reused while open)",
        timeout: Duration.seconds(29),
      }),
    )
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'], { indexes: false })
      .addEnvironment('SITE_URL', platform.siteUrl.replace(/\/$/, ''));
    rateLimits.bind(verification);
    api.route('POST /founding-identity/verification', verification, 'public');

    // Stripe Identity's webhook, signed with its own endpoint's secret. The logical id starts with
    // StripeIdentityWebhookSecret: the twin's Stripe emulator signs that endpoint's events with it.
    const webhookSecret = platform.config.stripeIdentityWebhookSecretName
      ? Secret.fromSecretNameV2(this, 'StripeIdentityWebhookSecret', platform.config.stripeIdentityWebhookSecretName)
      : new Secret(this, 'StripeIdentityWebhookSecret', {
          description: "Signing secret (whsec_...) of Stripe's Identity webhook endpoint for POST /webhooks/stripe-identity",
          generateSecretString: { excludePunctuation: true, passwordLength: 40 },
        });
    const receive = withStripe(
      new AppFunction(this, 'ReceiveIdentityEvent', {
        entry: 'functions/founding/routes/receive-identity-event/handler.ts',
        description: 'POST /webhooks/stripe-identity: applies each verified Stripe Identity event once (attempts, findings, an under-18 refusal)',
        timeout: Duration.seconds(60),
      }),
    )
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'DeleteItem'], { indexes: false })
      // An under-18 refusal deletes the application's photos at once (photo-deletion.ts).
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['DeleteObject'], 'applications/*', { listPrefix: 'applications/' })
      .addEnvironment('STRIPE_IDENTITY_WEBHOOK_SECRET_SECRET', platform.config.stripeIdentityWebhookSecretName ?? webhookSecret.secretArn)
      .bindBus(bus);
    receive.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects(`${PENDING_PREFIX}*`)] }));
    // The refusal resumes the review (or the wait for the proof of person) with its decision.
    receive.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [props.workflowArn] }));
    webhookSecret.grantRead(receive);
    platform.idempotency.bind(receive);
    api.route('POST /webhooks/stripe-identity', receive, 'signed');

    const check = new AppFunction(this, 'CheckFaces', {
      entry: 'functions/founding/triggers/check-faces/handler.ts',
      description: "Checks the faces of an application's photos (and replacements), emails what to replace, resumes the review",
      memorySize: 3008,
      timeout: Duration.minutes(10),
      ephemeralStorageSize: Size.mebibytes(1024),
      nodeModules: FACES_MODULES,
      environment: { IDENTITY_KEY_SECRET: this.key.secretArn },
    })
      // Query: the other applications' image hashes, for the verified selfie's copy check.
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'Query'], { indexes: false })
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['GetObject', 'PutObject', 'DeleteObject'], 'applications/*')
      .bindEmail(email);
    // The verified selfie is read from Stripe (its report's file).
    withStripe(check);
    this.key.grantRead(check);
    check.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [props.workflowArn] }));
    consumeEvents(this, 'OnIdentityCheckRequested', { bus, detailType: FOUNDING_IDENTITY_CHECK_REQUESTED, consumer: check, consequence: 'the face checks of the application' });

    // A likeness removal carried out: the application the talent came from loses its photos and
    // face data, everything under its prefix (and any original upload still pending), with
    // photosDeletedAt and a history line on the application.
    const deletePhotos = new AppFunction(this, 'DeleteRemovedLikenessPhotos', {
      entry: 'functions/founding/triggers/delete-removed-likeness-photos/handler.ts',
      description: "Likeness.Removed: deletes the photos, selfie and face analyses of the talent's founding application",
      timeout: Duration.seconds(60),
    })
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'DeleteItem'], { indexes: false })
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['DeleteObject'], 'applications/*', { listPrefix: 'applications/' });
    deletePhotos.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects(`${PENDING_PREFIX}*`)] }));
    consumeEvents(this, 'OnLikenessRemovedPhotos', { bus, detailType: LIKENESS_REMOVED, consumer: deletePhotos, consequence: "the talent's application photos and face data deleted" });
  }
}
