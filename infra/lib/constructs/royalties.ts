import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SfnStateMachine } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { CLOSE_SCHEDULE } from '../../../events/royalty-values';
import { royaltyCloseWorkflow } from '../workflows/royalty-close';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { AppFunction } from '../app-function';
import type { EmailSending } from './email';
import type { MarketplaceApi } from './http-api';
import type { IdempotencyStore } from './idempotency';
import type { RateLimits } from './rate-limits';

export interface RoyaltiesProps {
  api: MarketplaceApi;
  rateLimits: RateLimits;
  idempotency: IdempotencyStore;
  email: EmailSending;
  /** Accounts: profiles (the data export), roles (a contract's brand must be a client). */
  accountsTable: ITable;
  /** The catalog: talent, their royalty plan and likeness controls (pause, removal, contracts). */
  talentTable: ITable;
  /** Founding applications: a talent's standing, their email for notices, the data export. */
  applicationsTable: ITable;
  /** The Generations table: accruals (written by DeliverImages), statements, payout details, contract history. */
  generationsTable: ITable;
  siteUrl: string;
  /** A removal's notice in seconds (stage config; 30 days, shorter on the twin). */
  removalNoticeSeconds: number;
}

/**
 * Royalties, monthly statements and the talent's control over their likeness (docs/royalties.md).
 * Lives inside the Generation nested stack (decision 026): it reads and writes that stack's table.
 */
export class Royalties extends Construct {
  constructor(scope: Construct, id: string, props: RoyaltiesProps) {
    super(scope, id);
    void HttpMethod;
    void props;

    // --- The monthly close: state machine, schedule, statement emails (royalty-close) ---
    this.closeWorkflow(props);

    // --- The talent's earnings, statements and payout details (talent-earnings) ---
    {
      const { api } = props;
      // Both find the caller's likeness through their founding application and the catalog.
      const talentOf = (fn: AppFunction) =>
        fn
          .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
          .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
          .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
      const reads = talentOf(
        new AppFunction(this, 'MyStatements', {
          entry: 'functions/royalties/routes/my-statements/handler.ts',
          description: 'GET /me/earnings, /me/statements, /me/statements/{id} and its CSV: an accepted talent\'s royalties',
        }),
      ).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false });
      api.userRoute('/me/earnings', HttpMethod.GET, reads, 'GetMyEarnings', 'accepted-talent');
      api.userRoute('/me/statements', HttpMethod.GET, reads, 'ListMyStatements', 'accepted-talent');
      api.userRoute('/me/statements/{id}', HttpMethod.GET, reads, 'GetMyStatement', 'accepted-talent');
      api.userRoute('/me/statements/{id}/csv', HttpMethod.GET, reads, 'GetMyStatementCsv', 'accepted-talent');
      const payoutDetails = talentOf(
        new AppFunction(this, 'PutPayoutDetails', {
          entry: 'functions/royalties/routes/put-payout-details/handler.ts',
          description: 'PUT /me/payout-details: where an accepted talent\'s monthly payouts go',
        }),
      ).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['PutItem'], { indexes: false });
      props.rateLimits.bind(payoutDetails);
      api.userRoute('/me/payout-details', HttpMethod.PUT, payoutDetails, 'PutPayoutDetails', 'accepted-talent');
    }

    // --- Likeness controls: pause, removal, data export, the likeness schedule (likeness-controls) ---
    {
      const { api } = props;
      // Each finds the caller's likeness through their founding application and the catalog.
      const likenessRoute = (id: string, entry: string, description: string) =>
        new AppFunction(this, id, { entry: `functions/likeness/routes/${entry}/handler.ts`, description })
          .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
          .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false });
      const status = likenessRoute('GetLikeness', 'get-likeness', 'GET /me/likeness: an accepted talent\'s likeness state, pause, removal and contract')
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false });
      api.userRoute('/me/likeness', HttpMethod.GET, status, 'GetLikeness', 'accepted-talent');
      const pause = likenessRoute('PauseLikeness', 'pause-likeness', 'POST /me/likeness/pause and /resume: an accepted talent pauses or resumes their likeness')
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
      props.rateLimits.bind(pause);
      api.userRoute('/me/likeness/pause', HttpMethod.POST, pause, 'PauseLikeness', 'accepted-talent');
      api.userRoute('/me/likeness/resume', HttpMethod.POST, pause, 'ResumeLikeness', 'accepted-talent');
      const removal = likenessRoute('RequestRemoval', 'request-removal', 'POST /me/likeness/removal: an accepted talent requests removal after the notice; emails them')
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
      removal.addEnvironment('REMOVAL_NOTICE_SECONDS', String(props.removalNoticeSeconds));
      removal.addEnvironment('SENDER_EMAIL', props.email.senderEmail);
      removal.addEnvironment('SES_CONFIGURATION_SET', props.email.configurationSet.configurationSetName);
      removal.addEnvironment('SITE_URL', props.siteUrl);
      props.email.grantSend(removal);
      props.rateLimits.bind(removal);
      api.userRoute('/me/likeness/removal', HttpMethod.POST, removal, 'RequestRemoval', 'accepted-talent');
      const cancel = likenessRoute('CancelRemoval', 'cancel-removal', 'DELETE /me/likeness/removal: an accepted talent cancels a removal during its notice')
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
      props.rateLimits.bind(cancel);
      api.userRoute('/me/likeness/removal', HttpMethod.DELETE, cancel, 'CancelRemoval', 'accepted-talent');
      const dataExport = likenessRoute('ExportMyData', 'export-my-data', 'GET /me/data-export: everything held about an accepted talent, as a JSON download')
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
        .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false });
      dataExport.addEnvironment('SITE_URL', props.siteUrl);
      props.rateLimits.bind(dataExport);
      api.userRoute('/me/data-export', HttpMethod.GET, dataExport, 'ExportMyData', 'accepted-talent');

      // Hourly: removals whose notice ended (removedAt, model cleared, email) and contracts'
      // notices. In the nested stack's own scope, so its logical id starts with LikenessSchedule
      // (the twin fires it by that prefix).
      const schedule = bindFreezeNotices(
        new AppFunction(this, 'LikenessScheduleJob', {
          entry: 'functions/likeness/triggers/likeness-schedule/handler.ts',
          description: 'Hourly: carries out removals whose notice ended and sends exclusive contracts\' notices',
          timeout: Duration.minutes(2),
        }),
        props,
      );
      new Rule(Stack.of(this), 'LikenessSchedule', {
        description: 'Hourly: removals whose notice ended, exclusive contracts starting or ending',
        schedule: Schedule.rate(Duration.hours(1)),
        targets: [new LambdaFunction(schedule, { retryAttempts: 4, maxEventAge: Duration.hours(1) })],
      });
    }

    // --- Exclusive contracts (frozen likeness): console routes, the brand's talent (frozen-likeness) ---
    {
      const { api } = props;
      const freeze = bindFreezeNotices(
        new AppFunction(this, 'FreezeTalent', {
          entry: 'functions/likeness/routes/exclusive-contract/handler.ts',
          description: 'GET, POST and DELETE /admin/talent/{id}/freeze: a talent\'s exclusive contract (admins only)',
        }),
        props,
      )
        .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
        .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['PutItem', 'Query'], { indexes: false })
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem'], { indexes: false });
      api.adminRoute('/admin/talent/{id}/freeze', HttpMethod.GET, freeze, 'GetTalentFreeze');
      api.adminRoute('/admin/talent/{id}/freeze', HttpMethod.POST, freeze, 'RecordTalentFreeze');
      api.adminRoute('/admin/talent/{id}/freeze', HttpMethod.DELETE, freeze, 'EndTalentFreeze');
      const exclusive = new AppFunction(this, 'ListExclusiveTalent', {
        entry: 'functions/likeness/routes/list-exclusive-talent/handler.ts',
        description: 'GET /me/exclusive-talent: the talent under an exclusive contract with the calling client',
      }).bindTable(props.talentTable, 'TALENT_TABLE', ['Scan'], { indexes: false });
      api.userRoute('/me/exclusive-talent', HttpMethod.GET, exclusive, 'ListExclusiveTalent', 'client');
    }

    // --- The console: Statements resource, payouts, the dashboard's owed total (console-statements) ---
    {
      const { api, generationsTable, talentTable } = props;
      const fn = (id: string, entry: string, description: string) => new AppFunction(this, id, { entry: `functions/royalties/routes/${entry}/handler.ts`, description });
      // Statements are listed by month through the table's byCreated index.
      const list = fn('AdminListStatements', 'list-statements-admin', 'GET /admin/statements: statements by month, talent and payout status (admins only)')
        .bindTable(generationsTable, 'GENERATIONS_TABLE', ['Query', 'GetItem']);
      api.adminRoute('/admin/statements', HttpMethod.GET, list, 'AdminListStatements');
      const csv = fn('AdminExportPayouts', 'export-statements-csv', 'GET /admin/statements/csv: a month\'s payouts as CSV (admins only)')
        .bindTable(generationsTable, 'GENERATIONS_TABLE', ['Query', 'GetItem']);
      api.adminRoute('/admin/statements/csv', HttpMethod.GET, csv, 'AdminExportPayouts');
      const get = fn('AdminGetStatement', 'get-statement-admin', 'GET /admin/statements/{id}: a statement with its lines, payout and audit (admins only)')
        .bindTable(generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false })
        .bindTable(talentTable, 'TALENT_TABLE', ['GetItem']);
      api.adminRoute('/admin/statements/{id}', HttpMethod.GET, get, 'AdminGetStatement');
      const payout = fn('AdminMarkPayout', 'mark-statement-payout', 'PUT /admin/statements/{id}/payout: marks a statement paid or unpaid, with the audit (admins only)')
        .bindTable(generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query', 'UpdateItem'], { indexes: false })
        .bindTable(talentTable, 'TALENT_TABLE', ['GetItem']);
      api.adminRoute('/admin/statements/{id}/payout', HttpMethod.PUT, payout, 'AdminMarkPayout');
    }
  }

  /**
   * The monthly close (docs/royalties.md "Monthly close", decision 029): the RoyaltyClose state
   * machine, its task functions and the rule that starts it on the 1st at 01:00 UTC. Its failures
   * alarm like every state machine's (the Alarms construct finds it).
   */
  private closeWorkflow(props: RoyaltiesProps): StateMachine {
    const nested = Stack.of(this);
    // A name of the main stack's, short and known before deployment (as the Generation machine's).
    const stateMachineName = `${(nested.nestedStackParent ?? nested).stackName}-RoyaltyClose`;
    const planClose = new AppFunction(this, 'PlanClose', {
      entry: 'functions/royalties/steps/close-plan/handler.ts',
      description: 'RoyaltyClose: the month to close and every talent id of the catalog',
      timeout: Duration.seconds(30),
    }).bindTable(props.talentTable, 'TALENT_TABLE', ['Scan'], { indexes: false });
    const closeTalentMonth = new AppFunction(this, 'CloseTalentMonth', {
      entry: 'functions/royalties/steps/close-talent-month/handler.ts',
      description: 'RoyaltyClose: claims a talent\'s open accruals, writes the month\'s statement once and emails the talent',
      timeout: Duration.minutes(2),
      environment: {
        SENDER_EMAIL: props.email.senderEmail,
        SES_CONFIGURATION_SET: props.email.configurationSet.configurationSetName,
        SITE_URL: props.siteUrl,
      },
    })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query', 'UpdateItem', 'PutItem'], { indexes: false })
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false });
    props.email.grantSend(closeTalentMonth);

    const logs = new LogGroup(this, 'RoyaltyCloseLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const machine = new StateMachine(this, 'RoyaltyClose', {
      stateMachineName,
      ...royaltyCloseWorkflow(this, 'CloseStates', { planClose, closeTalentMonth }),
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    // In the nested stack's own scope, so its logical id starts with MonthlyCloseSchedule
    // (the twin fires it by that prefix).
    new Rule(nested, 'MonthlyCloseSchedule', {
      description: 'The 1st of each month, 01:00 UTC: the RoyaltyClose state machine closes the month before',
      schedule: Schedule.cron({ ...CLOSE_SCHEDULE, month: '*', year: '*' }),
      targets: [new SfnStateMachine(machine, { retryAttempts: 8, maxEventAge: Duration.hours(6) })],
    });
    return machine;
  }
}

/**
 * What `runFreezeNotices` (functions/likeness/contract-notices.ts) needs, for the likeness
 * schedule's function and the console's freeze route: the catalog (read the contracts, clear or
 * mark them), the contract history, the talent's application (their email) and SES.
 */
function bindFreezeNotices(fn: AppFunction, props: RoyaltiesProps): AppFunction {
  fn.bindTable(props.talentTable, 'TALENT_TABLE', ['Scan', 'UpdateItem'], { indexes: false })
    .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['PutItem'], { indexes: false })
    .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false });
  fn.addEnvironment('SENDER_EMAIL', props.email.senderEmail);
  fn.addEnvironment('SES_CONFIGURATION_SET', props.email.configurationSet.configurationSetName);
  fn.addEnvironment('SITE_URL', props.siteUrl);
  props.email.grantSend(fn);
  return fn;
}
