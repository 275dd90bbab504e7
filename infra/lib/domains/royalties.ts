import { Duration, NestedStack, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { SfnStateMachine } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { PAYMENTS_SPENT_CREDITS_REFUNDED } from '../../../events/payment-events';
import { LICENSE_REINSTATED, LICENSE_REVOKED } from '../../../events/reports';
import { GENERATIONS_CREATED_INDEX } from '../../../events/resource-names';
import { CLOSE_SCHEDULE } from '../../../events/royalty-values';
import { AppFunction } from '../platform/app-function';
import { consumeEvents } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { royaltyCloseWorkflow } from '../workflows/royalty-close';

export interface RoyaltiesProps {
  /** Accounts: profiles the talent's routes create for an invited person. */
  accountsTable: ITable;
  /** The catalog: talent and their royalty plan. */
  talentTable: ITable;
  /** Founding applications: a talent's standing and their email for the statement. */
  applicationsTable: ITable;
  /** The Generations table: accruals (written by DeliverImages), statements and payout details. */
  generationsTable: ITable;
}

/**
 * Royalties and monthly statements (functions/royalties, docs/royalties.md): the monthly close,
 * the talent's earnings, statements and payout details, and the console's Statements resource.
 * Its records live in the Generations table, beside the accruals the delivery writes. A nested
 * stack of its own (decision 032): the main stack has no room for it.
 */
export class Royalties extends NestedStack {
  constructor(scope: Stack, id: string, platform: Platform, props: RoyaltiesProps) {
    super(scope, id, { description: 'Royalties: the monthly close, statements and payouts' });
    this.closeWorkflow(scope, platform, props);
    this.takeBack(platform, props);
    this.revokedLicenses(platform, props);
    const { api } = platform;
    const { generationsTable, talentTable } = props;

    // The talent's own: both find the caller's likeness through their founding application and the catalog.
    const talentOf = (fn: AppFunction) =>
      fn
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
        .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
        .bindTable(talentTable, 'TALENT_TABLE', ['GetItem']);
    const statementReader = (id: string, entry: string, description: string, environment: Record<string, string> = {}) =>
      talentOf(new AppFunction(this, id, { entry, description, environment })).bindTable(generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false });
    const earnings = statementReader('MyEarnings', 'functions/royalties/routes/get-my-earnings/handler.ts', "GET /me/earnings: an accepted talent's royalties this month so far", {
      // This month so far applies the promotional cap as the close will.
      PROMOTIONAL_ROYALTY_CAP_CENTS: String(platform.config.promotionalRoyaltyCapCents),
    });
    api.route('GET /me/earnings', earnings, 'accepted-talent');
    const statements = statementReader('MyStatements', 'functions/royalties/routes/my-statements/handler.ts', "GET /me/statements: an accepted talent's closed statements");
    api.route('GET /me/statements', statements, 'accepted-talent');
    const statement = statementReader('MyStatement', 'functions/royalties/routes/get-my-statement/handler.ts', "GET /me/statements/{id}: one of an accepted talent's statements with its lines");
    api.route('GET /me/statements/{id}', statement, 'accepted-talent');
    const statementCsv = statementReader('MyStatementCsv', 'functions/royalties/routes/export-my-statement-csv/handler.ts', "GET /me/statements/{id}/csv: one of an accepted talent's statements as a CSV download");
    api.route('GET /me/statements/{id}/csv', statementCsv, 'accepted-talent');

    // The console: statements are listed by month through the table's byCreated index (another
    // stack's table: the grant names the index).
    const byMonth = (fn: AppFunction) => {
      fn.bindTable(generationsTable, 'GENERATIONS_TABLE', ['Query', 'GetItem'], { indexes: false });
      fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${generationsTable.tableArn}/index/${GENERATIONS_CREATED_INDEX}`] }));
      return fn;
    };
    const list = byMonth(
      new AppFunction(this, 'AdminListStatements', { entry: 'functions/royalties/routes/list-statements-admin/handler.ts', description: 'GET /admin/statements: statements by month, talent and payout status (admins only)' }),
    );
    api.route('GET /admin/statements', list, 'admin');
    const csv = byMonth(
      new AppFunction(this, 'AdminExportPayouts', { entry: 'functions/royalties/routes/export-statements-csv/handler.ts', description: 'GET /admin/statements/csv: a month\'s payouts as CSV (admins only)' }),
    );
    api.route('GET /admin/statements/csv', csv, 'admin');
    const get = new AppFunction(this, 'AdminGetStatement', { entry: 'functions/royalties/routes/get-statement-admin/handler.ts', description: 'GET /admin/statements/{id}: a statement with its lines, payout and audit (admins only)' })
      .bindTable(generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false })
      .bindTable(talentTable, 'TALENT_TABLE', ['GetItem']);
    api.route('GET /admin/statements/{id}', get, 'admin');
  }

  /**
   * The monthly close (docs/royalties.md "Monthly close", decision 029): the RoyaltyClose state
   * machine, its task functions and the rule that starts it on the 1st at 01:00 UTC. Its failures
   * alarm like every state machine's (the Alarms construct finds it), and each statement it could
   * not close is counted by ReportNotClosed (metric StatementsNotClosed, with its own alarm).
   */
  /**
   * Royalties taken back for refunds (docs/payouts.md "Money taken back"):
   * `Payments.SpentCreditsRefunded` -> the refunded images' royalties, recorded for the next close.
   */
  private takeBack(platform: Platform, props: RoyaltiesProps): void {
    const takeBack = new AppFunction(this, 'TakeBackRoyalties', {
      entry: 'functions/royalties/triggers/take-back-royalties/handler.ts',
      description: "Takes back the royalties of refunded images: they come off the talent's next statement",
      timeout: Duration.seconds(60),
    }).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['Query', 'UpdateItem', 'PutItem'], { indexes: false });
    consumeEvents(this, 'OnSpentCreditsRefunded', { bus: platform.bus, detailType: PAYMENTS_SPENT_CREDITS_REFUNDED, consumer: takeBack, consequence: 'royalties of refunded images taken back' });
  }

  /**
   * Royalties taken back for a client's breach (decision 058, docs/decisions/061):
   * `License.Revoked` with `clientBreach` -> the license's royalty, recorded for the next close;
   * `License.Reinstated` -> that royalty given back.
   */
  private revokedLicenses(platform: Platform, props: RoyaltiesProps): void {
    const revoked = new AppFunction(this, 'RevokedLicenseRoyalty', {
      entry: 'functions/royalties/triggers/revoked-license-royalty/handler.ts',
      description: "Takes back the royalty of a license revoked for the client's breach: it comes off the talent's next statement",
    }).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    consumeEvents(this, 'OnLicenseRevoked', { bus: platform.bus, detailType: LICENSE_REVOKED, consumer: revoked, consequence: "royalty of a license revoked for the client's breach taken back" });
    // `License.Reinstated` -> the royalty its revocation took back, given back on the next close.
    const reinstated = new AppFunction(this, 'ReinstatedLicenseRoyalty', {
      entry: 'functions/royalties/triggers/reinstated-license-royalty/handler.ts',
      description: "Gives back the royalty taken back from a license reinstated on appeal: it comes back on the talent's next statement",
    }).bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'PutItem'], { indexes: false });
    consumeEvents(this, 'OnLicenseReinstated', { bus: platform.bus, detailType: LICENSE_REINSTATED, consumer: reinstated, consequence: 'royalty taken back from a license reinstated on appeal given back' });
  }

  private closeWorkflow(parent: Stack, platform: Platform, props: RoyaltiesProps): StateMachine {
    // A name of the main stack's, short and known before deployment (as the Generation machine's).
    const stateMachineName = `${parent.stackName}-RoyaltyClose`;
    const planClose = new AppFunction(this, 'PlanClose', {
      entry: 'functions/royalties/steps/close-plan/handler.ts',
      description: 'RoyaltyClose: the month to close and every talent id of the catalog',
      timeout: Duration.seconds(30),
    }).bindTable(props.talentTable, 'TALENT_TABLE', ['Scan'], { indexes: false });
    const closeTalentMonth = new AppFunction(this, 'CloseTalentMonth', {
      entry: 'functions/royalties/steps/close-talent-month/handler.ts',
      description: 'RoyaltyClose: claims a talent\'s open accruals, writes the month\'s statement once and emails the talent',
      timeout: Duration.minutes(2),
      // The stage's cap on promotional royalties per statement (decision 037), recorded on each statement.
      environment: { PROMOTIONAL_ROYALTY_CAP_CENTS: String(platform.config.promotionalRoyaltyCapCents) },
    })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query', 'UpdateItem', 'PutItem'], { indexes: false })
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false })
      .bindEmail(platform.email);

    // Writes the StatementsNotClosed metric (its alarm: infra/lib/platform/alarms.ts); no data access.
    const reportNotClosed = new AppFunction(this, 'ReportNotClosed', {
      entry: 'functions/royalties/steps/report-not-closed/handler.ts',
      description: 'RoyaltyClose: counts a talent\'s statement the close could not close (metric StatementsNotClosed)',
      timeout: Duration.seconds(10),
    });

    // Publishes Royalties.MonthClosed once the talent's closes were tried (the payout run consumes it).
    const announceClose = new AppFunction(this, 'AnnounceClose', {
      entry: 'functions/royalties/steps/announce-close/handler.ts',
      description: 'RoyaltyClose: publishes Royalties.MonthClosed for the month (the payout run follows)',
      timeout: Duration.seconds(10),
    }).bindBus(platform.bus);

    const logs = new LogGroup(this, 'RoyaltyCloseLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    const machine = new StateMachine(this, 'RoyaltyClose', {
      stateMachineName,
      ...royaltyCloseWorkflow(this, 'CloseStates', { planClose, closeTalentMonth, reportNotClosed, announceClose }),
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    // The twin fires it by its logical id's prefix, MonthlyCloseSchedule.
    new Rule(this, 'MonthlyCloseSchedule', {
      description: 'The 1st of each month, 01:00 UTC: the RoyaltyClose state machine closes the month before',
      schedule: Schedule.cron({ ...CLOSE_SCHEDULE, month: '*', year: '*' }),
      targets: [new SfnStateMachine(machine, { retryAttempts: 8, maxEventAge: Duration.hours(6) })],
    });
    return machine;
  }
}
