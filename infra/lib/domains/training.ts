import { ArnFormat, Duration, NestedStack, RemovalPolicy, Size, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { FOUNDING_APPLICATION_DECIDED } from '../../../events/founding';
import { LIKENESS_REMOVED } from '../../../events/likeness-events';
import { EVENT_SOURCE } from '../../../events/product';
import { SAMPLES_PREFIX, TRAINING_SETS_PREFIX, TRAINING_SET_RETENTION_DAYS } from '../../../events/training-values';
import { AppFunction, type AppFunctionProps, type TableAction } from '../platform/app-function';
import { PrivateBucket } from '../platform/buckets';
import { consumeEvents, retriedRule } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';
import { likenessTrainingWorkflow } from '../workflows/likeness-training';

export interface TrainingProps {
  /** Accounts: profiles the talent's routes create for an invited person. */
  accountsTable: ITable;
  /** The catalog: the talent, their controls and their generation config (set on approval). */
  talentTable: ITable;
  /** Founding applications: the accepted photos' results, the talent id, the talent's standing and email. */
  applicationsTable: ITable;
  /** The founding photos bucket: the accepted photos under `applications/` are read, never written. */
  photosBucket: IBucket;
  /** The Replicate API token (the generation's secret). */
  replicateToken: ISecret;
}

/**
 * The likeness model (functions/training, docs/training.md): the Training table and the private
 * training bucket, the LikenessTraining state machine an acceptance starts, Replicate's training
 * webhook, the talent's review routes and the console's trainings. A nested stack of its own
 * (decision 032).
 */
export class Training extends NestedStack {
  /** The models and trainings: the data export lists them, the console's erasure deletes them. */
  readonly table: AppTable;
  /** Training sets and samples: the console's erasure deletes a talent's. */
  readonly bucket: PrivateBucket;
  /** The table's byTalent index (a talent's trainings), to grant Query on by name from other stacks. */
  readonly byTalentIndexArn: string;

  constructor(scope: Stack, id: string, platform: Platform, props: TrainingProps) {
    super(scope, id, { description: 'Likeness models: training on Replicate, the talent\'s approval, versions' });
    const { api, config, idempotency, rateLimits } = platform;
    const settings = config.likenessTraining;
    // A paid service may not train on a base model whose licence forbids it (decision 046).
    if (config.stage === 'prod' && settings.licence !== 'commercial') {
      throw new Error('Context likenessTrainerLicence must be commercial on the prod stage: name a trainer whose base model is licensed for a paid service (decision 046)');
    }

    const byTalent = 'byTalent';
    const table = (this.table = new AppTable(this, 'TrainingTable', {
      partitionKey: 'pk',
      sortKey: 'sk',
      indexes: [{ name: byTalent, partitionKey: 'talentKey', sortKey: 'createdAt' }],
      retain: config.retainData,
    }));
    this.byTalentIndexArn = `${table.tableArn}/index/${byTalent}`;
    // Training sets (the talent's cropped photos) and samples: private, reached by presigned URLs only.
    const bucket = (this.bucket = new PrivateBucket(this, 'TrainingFiles', {
      accessLogs: { bucket: platform.logBucket, prefix: 'likeness-training/' },
      lifecycleRules: [
        // Replicate reads a set once, within the hour its URL is valid: it is not kept beyond a few days.
        { id: 'expire-training-sets', prefix: TRAINING_SETS_PREFIX, expiration: Duration.days(TRAINING_SET_RETENTION_DAYS) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      retain: config.retainData,
    }));

    const stateMachineName = `${scope.stackName}-LikenessTraining`;
    const stateMachineArn = Stack.of(this).formatArn({ service: 'states', resource: 'stateMachine', resourceName: stateMachineName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const token = config.replicateTokenSecretName ?? props.replicateToken.secretArn;
    const replicate = (fn: AppFunction) => {
      fn.addEnvironment('REPLICATE_TOKEN_SECRET', token);
      props.replicateToken.grantRead(fn);
      return fn;
    };
    const trainingTable = (fn: AppFunction, actions: TableAction[] = ['GetItem', 'UpdateItem']) => fn.bindTable(table, 'TRAINING_TABLE', actions, { indexes: false });
    const trainer = {
      TRAINER: settings.trainer,
      TRAINER_VERSION: settings.trainerVersion,
      TRAINER_INPUTS: JSON.stringify(settings.inputs),
      TRAINING_STEPS: String(settings.steps),
      MODEL_OWNER: settings.modelOwner,
      TRAINING_HARDWARE: settings.hardware,
      TRAINING_IMAGE_SIZE: String(settings.imageSize),
    };
    const startsTrainings = (fn: AppFunction) => {
      fn.addEnvironment('STATE_MACHINE_ARN', stateMachineArn);
      fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn] }));
      return fn;
    };
    const signsSamples = (fn: AppFunction) => fn.bindBucketObjects(bucket, 'TRAINING_BUCKET', ['GetObject'], `${SAMPLES_PREFIX}*`);

    // ---- The state machine's steps ----
    const task = (fnId: string, step: string, description: string, extra: Partial<AppFunctionProps> = {}) =>
      new AppFunction(this, fnId, { entry: `functions/training/steps/${step}/handler.ts`, description, ...extra });
    const prepareTraining = trainingTable(
      task('PrepareTraining', 'prepare-training', 'LikenessTraining: the training to run; an acceptance\'s waits for its talent, then makes the model and first training', {
        environment: { MODEL_OWNER: settings.modelOwner },
      }),
      ['GetItem', 'UpdateItem', 'PutItem'],
    )
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false });
    const buildTrainingSet = trainingTable(
      task('BuildTrainingSet', 'build-training-set', 'LikenessTraining: crops the usable photos around the face, without metadata, and zips them privately', {
        memorySize: 2048,
        timeout: Duration.minutes(5),
        ephemeralStorageSize: Size.mebibytes(1024),
        nodeModules: ['sharp'],
        environment: { TRAINING_IMAGE_SIZE: String(settings.imageSize) },
      }),
    )
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindBucketObjects(props.photosBucket, 'PHOTOS_BUCKET', ['GetObject'], 'applications/*')
      .bindBucketObjects(bucket, 'TRAINING_BUCKET', ['PutObject'], `${TRAINING_SETS_PREFIX}*`);
    const createModel = replicate(
      trainingTable(task('CreateModel', 'create-model', 'LikenessTraining: the talent\'s private destination model on Replicate (409: made before)', { timeout: Duration.seconds(60), environment: { TRAINING_HARDWARE: settings.hardware } }), ['GetItem']),
    );
    const startTraining = replicate(
      trainingTable(
        task('StartTraining', 'start-training', 'LikenessTraining: starts the training on Replicate with the stage\'s trainer, the set by a presigned URL and our webhook', {
          timeout: Duration.seconds(60),
          environment: { ...trainer, WEBHOOK_URL: `${api.api.apiEndpoint}/webhooks/replicate-training` },
        }),
      ),
    ).bindBucketObjects(bucket, 'TRAINING_BUCKET', ['GetObject'], `${TRAINING_SETS_PREFIX}*`);
    const awaitTraining = trainingTable(
      task('AwaitTraining', 'await-training', 'LikenessTraining: stores the task token the completed webhook resumes with (resumes itself when the webhook came first)'),
    );
    awaitTraining.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [stateMachineArn] }));
    const pollTraining = replicate(trainingTable(task('PollTraining', 'poll-training', 'LikenessTraining: reads the training from Replicate when no webhook came', { timeout: Duration.seconds(60) })));
    const recordVersion = replicate(
      trainingTable(task('RecordVersion', 'record-version', 'LikenessTraining: records the new version, its duration, cost and logs from Replicate', { timeout: Duration.seconds(60) })),
    );
    const generateSamples = replicate(
      trainingTable(task('GenerateSamples', 'generate-samples', 'LikenessTraining: the new version\'s sample images from fixed prompts, stored privately', { timeout: Duration.minutes(5), memorySize: 512 })),
    ).bindBucketObjects(bucket, 'TRAINING_BUCKET', ['PutObject'], `${SAMPLES_PREFIX}*`);
    const emailTalent = trainingTable(task('EmailTalent', 'email-talent', 'LikenessTraining: emails the talent that their model is ready for review (once)', { timeout: Duration.seconds(15) }))
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindEmail(platform.email);
    idempotency.bind(emailTalent);
    const recordFailure = replicate(
      trainingTable(task('RecordFailure', 'record-failure', 'LikenessTraining: records a failed training (code, time), cancels it on Replicate, counts LikenessTrainingsFailed', { timeout: Duration.seconds(30) })),
    );

    const logs = new LogGroup(this, 'LikenessTrainingLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const machine = new StateMachine(this, 'LikenessTraining', {
      stateMachineName,
      ...likenessTrainingWorkflow(this, 'TrainingStates', {
        prepareTraining,
        buildTrainingSet,
        createModel,
        startTraining,
        awaitTraining,
        pollTraining,
        recordVersion,
        generateSamples,
        emailTalent,
        recordFailure,
      }),
      tracingEnabled: true,
      // Every event, without execution data.
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });

    // An acceptance starts the training (the trigger records the start, so a redelivery starts nothing).
    const start = startsTrainings(
      trainingTable(
        new AppFunction(this, 'StartLikenessTraining', {
          entry: 'functions/training/triggers/start-likeness-training/handler.ts',
          description: 'FoundingApplication.Decided (accept): starts the application\'s LikenessTraining, once',
        }),
        ['GetItem', 'PutItem'],
      ),
    );
    retriedRule(this, 'OnApplicationAccepted', {
      eventBus: platform.bus,
      description: `${FOUNDING_APPLICATION_DECIDED} (accept) -> the LikenessTraining state machine`,
      eventPattern: { source: [EVENT_SOURCE], detailType: [FOUNDING_APPLICATION_DECIDED], detail: { decision: ['accept'] } },
      deadLetterId: 'StartLikenessTrainingDeadLetters',
      deadLetterOf: `the ${FOUNDING_APPLICATION_DECIDED} rule target`,
      target: (retry) => new LambdaFunction(start, retry),
    });

    // A likeness removal carried out (the likeness schedule): every version deleted on Replicate,
    // the training sets and samples deleted; the records kept, marked deleted, the model removed.
    const removeModel = replicate(
      new AppFunction(this, 'RemoveLikenessModel', {
        entry: 'functions/training/triggers/remove-likeness-model/handler.ts',
        description: 'Likeness.Removed: deletes the talent\'s model versions on Replicate and their training sets and samples',
        timeout: Duration.minutes(2),
      }),
    )
      // The talent's trainings by the byTalent index.
      .bindTable(table, 'TRAINING_TABLE', ['GetItem', 'Query', 'UpdateItem'])
      .bindBucketObjects(bucket, 'TRAINING_BUCKET', ['DeleteObject'], `${SAMPLES_PREFIX}*`, { listPrefix: SAMPLES_PREFIX });
    removeModel.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects(`${TRAINING_SETS_PREFIX}*`)] }));
    consumeEvents(this, 'OnLikenessRemovedModel', { bus: platform.bus, detailType: LIKENESS_REMOVED, consumer: removeModel, consequence: 'the talent\'s model versions and training files deleted' });

    // Replicate's training webhook (public, signed): records the status and resumes the waiting execution.
    const webhook = replicate(
      trainingTable(
        new AppFunction(this, 'ReplicateTrainingWebhook', {
          entry: 'functions/training/routes/replicate-training-webhook/handler.ts',
          description: 'POST /webhooks/replicate-training: verifies a Replicate training webhook, records it once and resumes the training',
        }),
      ),
    );
    webhook.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [machine.stateMachineArn] }));
    rateLimits.bind(webhook);
    idempotency.bind(webhook);
    api.route('POST /webhooks/replicate-training', webhook, 'signed');

    // ---- The talent's routes: their own model only (the caller's talent, from their accepted application) ----
    const talentOwn = (fn: AppFunction) =>
      fn
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
        .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false });
    const myModel = signsSamples(
      talentOwn(
        new AppFunction(this, 'GetMyLikenessModel', {
          entry: 'functions/training/routes/get-my-likeness-model/handler.ts',
          description: 'GET /me/likeness-model: an accepted talent\'s own likeness model, its state and samples',
        }),
      ).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false }),
    ).bindTable(table, 'TRAINING_TABLE', ['GetItem', 'Query']);
    api.route('GET /me/likeness-model', myModel, 'accepted-talent');
    // The talent's review of a new version: approving puts it live in the catalog, rejecting may start a new training.
    const reviews = (id: string, entry: string, description: string, talentActions: TableAction[]) => {
      const fn = signsSamples(talentOwn(new AppFunction(this, id, { entry, description })).bindTable(props.talentTable, 'TALENT_TABLE', talentActions, { indexes: false })).bindTable(
        table,
        'TRAINING_TABLE',
        ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
      );
      rateLimits.bind(fn);
      return fn;
    };
    const approve = reviews(
      'ApproveLikenessModel',
      'functions/training/routes/approve-likeness-model/handler.ts',
      'POST /me/likeness-model/approve: an accepted talent approves their new version; it goes live',
      ['GetItem', 'UpdateItem'],
    );
    api.route('POST /me/likeness-model/approve', approve, 'accepted-talent');
    const reject = startsTrainings(
      reviews('RejectLikenessModel', 'functions/training/routes/reject-likeness-model/handler.ts', 'POST /me/likeness-model/reject: an accepted talent rejects their new version and may have it trained again', ['GetItem']),
    );
    api.route('POST /me/likeness-model/reject', reject, 'accepted-talent');

    // ---- The console ----
    const trainings = signsSamples(
      new AppFunction(this, 'AdminListTrainings', {
        entry: 'functions/training/routes/list-trainings-admin/handler.ts',
        description: 'GET /admin/talent/{id}/trainings: a talent\'s trainings with state, duration, cost, logs and samples (admins only)',
      }).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false }),
    ).bindTable(table, 'TRAINING_TABLE', ['GetItem', 'Query']);
    api.route('GET /admin/talent/{id}/trainings', trainings, 'admin');
    const retrain = startsTrainings(
      new AppFunction(this, 'AdminRetrainLikeness', {
        entry: 'functions/training/routes/retrain-likeness/handler.ts',
        description: 'POST /admin/talent/{id}/trainings: trains a talent\'s likeness model again, with other steps if given (admins only)',
        environment: { MODEL_OWNER: settings.modelOwner },
      })
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
        .bindTable(table, 'TRAINING_TABLE', ['GetItem', 'Query', 'UpdateItem', 'PutItem', 'ConditionCheckItem']),
    );
    api.route('POST /admin/talent/{id}/trainings', retrain, 'admin');
    const rollback = signsSamples(
      new AppFunction(this, 'AdminRollbackLikeness', {
        entry: 'functions/training/routes/rollback-likeness/handler.ts',
        description: 'POST /admin/talent/{id}/trainings/{trainingId}/rollback: an earlier approved version goes live again (admins only)',
      }).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false }),
    ).bindTable(table, 'TRAINING_TABLE', ['GetItem', 'Query', 'UpdateItem']);
    api.route('POST /admin/talent/{id}/trainings/{trainingId}/rollback', rollback, 'admin');
  }
}
