import { Duration, Names, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { LICENSE_REINSTATED, LICENSE_REVOKED, REPORT_DECIDED, REPORT_RECEIVED } from '../../../events/reports';
import { EVENT_SOURCE } from '../../../events/product';
import { GENERATION_IMAGES_PREFIX } from '../../../events/resource-names';
import { AppFunction } from '../platform/app-function';
import { PrivateBucket } from '../platform/buckets';
import { retriedRule } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

export interface ReportsProps {
  /** Licenses: what a reported file matched, and the generation wing's marks of a report's outcome. */
  generationsTable: ITable;
  /** The delivered images: each one's fingerprint is indexed as it is stored (decision 059). */
  imagesBucket: IBucket;
  /** Accounts: the client of a license (appeal, statement of reasons) and the caller of a `/me` route. */
  accountsTable: ITable;
  /** The catalog and the founding applications: the caller's standing as talent, the talent's email. */
  talentTable: ITable;
  applicationsTable: ITable;
}

/** The files a report's form sends are kept under this prefix of the reports bucket (functions/reports/files.ts). */
const REPORT_FILES_PREFIX = 'report-files/';

/**
 * Misuse reports and takedown (functions/reports, docs/product.md#reports-and-takedown, decisions
 * 058 and 059): the Reports table (cases, reported files' records, delivered images' fingerprints
 * and their index), the private bucket of reported files, the report form's, the talent's, the
 * client's and the console's routes, the index of delivered images, the emails, the generation
 * wing's consumer of the outcomes, and the overdue check (its metric ReportsOverdue and alarm are
 * the Alarms stack's, events/metrics.ts). A nested stack of its own (decision 032).
 */
export class Reports extends NestedStack {
  readonly table: AppTable;
  readonly bucket: PrivateBucket;

  constructor(scope: Stack, id: string, platform: Platform, props: ReportsProps) {
    super(scope, id, { description: 'Misuse reports, image checks, takedown decisions and appeals' });
    const { api, bus, config, idempotency, rateLimits } = platform;
    this.table = new AppTable(this, 'ReportsTable', { partitionKey: 'pk', sortKey: 'sk', retain: config.retainData });
    // Reported files are personal data: private, reached only through short-lived URLs in the console.
    this.bucket = new PrivateBucket(this, 'ReportFiles', { accessLogs: { bucket: platform.logBucket, prefix: 'report-files/' }, retain: config.retainData });

    const matches = (fn: AppFunction) =>
      fn
        .bindTable(this.table, 'REPORTS_TABLE', ['GetItem', 'BatchGetItem', 'Query'], { indexes: false })
        .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem'], { indexes: false });
    const decodes = { memorySize: 1024, timeout: Duration.seconds(30), nodeModules: ['sharp'] };

    // ---- The report form (anyone) -------------------------------------------------------------
    const upload = matches(
      new AppFunction(this, 'UploadReportFile', {
        entry: 'functions/reports/routes/upload-report-file/handler.ts',
        description: 'POST /reports/files: matches a reported image with the delivered ones and keeps it privately',
        ...decodes,
      }),
    )
      .bindTable(this.table, 'REPORTS_TABLE', ['PutItem'], { indexes: false })
      .bindBucketObjects(this.bucket, 'REPORTS_BUCKET', ['PutObject'], `${REPORT_FILES_PREFIX}*`);
    rateLimits.bind(upload);
    api.route('POST /reports/files', upload, 'public');

    const submit = new AppFunction(this, 'SubmitReport', { entry: 'functions/reports/routes/submit-report/handler.ts', description: 'POST /reports: opens a report case and announces it', timeout: Duration.seconds(20) })
      .bindTable(this.table, 'REPORTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem'], { indexes: false })
      .bindBus(bus);
    idempotency.bind(submit);
    rateLimits.bind(submit);
    api.route('POST /reports', submit, 'public');

    // ---- "Is this me?" (talent) ---------------------------------------------------------------
    const knowsCaller = (fn: AppFunction) =>
      fn
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
        .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false })
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false });
    const checkFile = knowsCaller(
      matches(new AppFunction(this, 'CheckLikeness', { entry: 'functions/reports/routes/check-likeness/handler.ts', description: 'POST /me/likeness-check: whether an image is one of ours, for a talent', ...decodes })),
    );
    rateLimits.bind(checkFile);
    api.route('POST /me/likeness-check', checkFile, 'talent');
    const checkUrl = knowsCaller(
      matches(
        new AppFunction(this, 'CheckLikenessUrl', {
          entry: 'functions/reports/routes/check-likeness-url/handler.ts',
          description: "POST /me/likeness-check/url: fetches a public URL's image and checks it, for a talent",
          ...decodes,
        }),
      ),
    );
    rateLimits.bind(checkUrl);
    api.route('POST /me/likeness-check/url', checkUrl, 'talent');

    // ---- The client's appeal ------------------------------------------------------------------
    const appeal = new AppFunction(this, 'AppealReport', { entry: 'functions/reports/routes/appeal-report/handler.ts', description: 'POST /reports/{reference}/appeal: the client appeals a decision about their license' })
      .bindTable(this.table, 'REPORTS_TABLE', ['GetItem', 'UpdateItem'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
      .bindBus(bus);
    api.route('POST /reports/{reference}/appeal', appeal, 'client');
    const decision = new AppFunction(this, 'ClientReportDecision', {
      entry: 'functions/reports/routes/get-report-decision/handler.ts',
      description: 'GET /reports/{reference}/decision: the decision about the caller\'s license, with its statement of reasons',
    })
      .bindTable(this.table, 'REPORTS_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    api.route('GET /reports/{reference}/decision', decision, 'client');

    // ---- The console --------------------------------------------------------------------------
    const list = new AppFunction(this, 'AdminListReports', { entry: 'functions/reports/routes/list-reports/handler.ts', description: 'GET /admin/reports: the reports queue by deadline (admins only)' })
      .bindTable(this.table, 'REPORTS_TABLE', ['Scan'], { indexes: false });
    api.route('GET /admin/reports', list, 'admin');
    const readsCase = (fn: AppFunction) =>
      fn
        .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem'], { indexes: false })
        .bindBucketObjects(this.bucket, 'REPORTS_BUCKET', ['GetObject'], `${REPORT_FILES_PREFIX}*`);
    const get = readsCase(
      new AppFunction(this, 'AdminGetReport', { entry: 'functions/reports/routes/get-report/handler.ts', description: 'GET /admin/reports/{reference}: one case with its files (admins only)' }),
    ).bindTable(this.table, 'REPORTS_TABLE', ['GetItem'], { indexes: false });
    api.route('GET /admin/reports/{reference}', get, 'admin');
    const decide = readsCase(
      new AppFunction(this, 'AdminDecideReport', { entry: 'functions/reports/routes/decide-report/handler.ts', description: 'POST /admin/reports/{reference}/decision: decides a case with its reasons (admins only)' }),
    )
      .bindTable(this.table, 'REPORTS_TABLE', ['GetItem', 'UpdateItem'], { indexes: false })
      // A sample to remove must be one of the matched talent's current samples.
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
      .bindBus(bus);
    api.route('POST /admin/reports/{reference}/decision', decide, 'admin');

    // ---- The index of delivered images (S3 Object Created under generations/) -----------------
    props.imagesBucket.enableEventBridgeNotification();
    const index = new AppFunction(this, 'IndexDeliveredImage', {
      entry: 'functions/reports/triggers/index-delivered-image/handler.ts',
      description: "Keeps each delivered image's fingerprint and index entries, so a reported copy finds its license",
      ...decodes,
    })
      .bindTable(this.table, 'REPORTS_TABLE', ['PutItem', 'BatchWriteItem'], { indexes: false })
      .bindBucketObjects(props.imagesBucket, 'IMAGES_BUCKET', ['GetObject'], `${GENERATION_IMAGES_PREFIX}*`);
    retriedRule(this, 'OnImageDelivered', {
      eventBus: EventBus.fromEventBusName(this, 'DefaultBus', 'default'),
      description: 'S3 Object Created under generations/ in the images bucket -> index the delivered image',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [props.imagesBucket.bucketName] }, object: { key: [{ prefix: GENERATION_IMAGES_PREFIX }] } },
      },
      deadLetterId: 'IndexDeliveredImageDeadLetters',
      deadLetterOf: 'the delivered-image index rule target',
      target: (retry) => new LambdaFunction(index, retry),
    });

    // ---- Emails: the reporter, the talent, the client ------------------------------------------
    const notify = new AppFunction(this, 'NotifyReport', {
      entry: 'functions/reports/triggers/notify-report/handler.ts',
      description: 'Emails the reporter, the talent and the client about a report and its decisions, once each',
    })
      .bindTable(this.table, 'REPORTS_TABLE', ['GetItem', 'UpdateItem'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindEmail(platform.email);
    idempotency.bind(notify);
    retriedRule(this, 'OnReportEvents', {
      eventBus: bus,
      description: `${REPORT_RECEIVED}, ${REPORT_DECIDED} -> emails to the reporter, the talent and the client`,
      eventPattern: { source: [EVENT_SOURCE], detailType: [REPORT_RECEIVED, REPORT_DECIDED] },
      deadLetterId: 'NotifyReportDeadLetters',
      deadLetterOf: 'the report emails rule target',
      target: (retry) => new LambdaFunction(notify, retry),
    });

    // ---- The generation wing's marks: withheld, revoked, released, reinstated ------------------
    const outcomes = new AppFunction(this, 'ReportOutcomes', {
      entry: 'functions/generation/triggers/report-outcomes/handler.ts',
      description: "Marks a reported license withheld, revoked, released or reinstated, and its client's image with it",
    }).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
    retriedRule(this, 'OnReportOutcome', {
      eventBus: bus,
      description: `${REPORT_RECEIVED}, ${LICENSE_REVOKED}, ${LICENSE_REINSTATED}, ${REPORT_DECIDED} -> the license withheld, revoked, reinstated or released`,
      eventPattern: { source: [EVENT_SOURCE], detailType: [REPORT_RECEIVED, LICENSE_REVOKED, LICENSE_REINSTATED, REPORT_DECIDED] },
      deadLetterId: 'ReportOutcomesDeadLetters',
      deadLetterOf: 'the report outcomes rule target',
      target: (retry) => new LambdaFunction(outcomes, retry),
    });

    // ---- Overdue check: every 15 minutes, counting the late cases (metric ReportsOverdue) -------
    const overdue = new AppFunction(this, 'OverdueCheck', {
      entry: 'functions/reports/triggers/overdue-check/handler.ts',
      description: 'Every 15 minutes: flags reports past their due time overdue (metric ReportsOverdue)',
      timeout: Duration.minutes(1),
    }).bindTable(this.table, 'REPORTS_TABLE', ['Scan', 'UpdateItem'], { indexes: false });
    // The twin fires it by its logical id's prefix, ReportsOverdueCheck.
    retriedRule(this, 'ReportsOverdueCheck', {
      description: 'Every 15 minutes: reports past their due time flagged overdue',
      schedule: Schedule.rate(Duration.minutes(15)),
      deadLetterId: 'OverdueCheckDeadLetters',
      deadLetterOf: 'the overdue check schedule target',
      target: (retry) => new LambdaFunction(overdue, retry),
    });
    // cdk-nag: object grants limited to a key prefix whose keys are generated (reported files by
    // id, delivered images per client, generation and license).
    const ownFiles = `Resource::<${this.getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/${REPORT_FILES_PREFIX}*`;
    for (const fn of [upload, get, decide]) {
      Validations.of(fn.role!).acknowledge({ id: `AwsSolutions-IAM5[${ownFiles}]`, reason: 'Reported files are kept under report-files/ by generated id; the grant names the exact actions and is limited to the prefix.' });
    }
    const imagesStack = Stack.of(props.imagesBucket);
    if (imagesStack instanceof NestedStack && imagesStack.nestedStackResource) {
      const images = `Resource::<referenceto${Names.uniqueId(imagesStack.nestedStackResource)}Outputs${Names.uniqueId(props.imagesBucket.node.defaultChild as CfnBucket)}Arn>/${GENERATION_IMAGES_PREFIX}*`;
      Validations.of(index.role!).acknowledge({
        id: `AwsSolutions-IAM5[${images}]`,
        reason: 'Image keys under generations/ are generated per client, generation and license; the index reads them (GetObject only), limited to the prefix.',
      });
    }
  }
}
