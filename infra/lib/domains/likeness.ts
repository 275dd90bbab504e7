import { Duration, NestedStack, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { AppFunction } from '../platform/app-function';
import type { Platform } from '../platform/platform';

export interface LikenessProps {
  /** Accounts: profiles the talent's routes create for an invited person; a contract's brand must be a client. */
  accountsTable: ITable;
  /** The catalog: a talent's likeness controls (excluded industries, pause, removal, exclusive contract). */
  talentTable: ITable;
  /** Founding applications: a talent's standing, their email for notices, the data export. */
  applicationsTable: ITable;
  /** The Generations table: ended exclusive contracts, and what the data export lists. */
  generationsTable: ITable;
  /** The Training table (another nested stack's) and its byTalent index: the data export lists the talent's model trainings. */
  trainingTable: ITable;
  trainingsByTalentArn: string;
}

/**
 * A talent's control over their likeness (functions/likeness, docs/royalties.md#likeness): excluded
 * industries, pause, removal after a notice, the data export, exclusive contracts recorded by
 * admins, and the hourly schedule that carries out removals and contracts' notices. A nested
 * stack of its own (decision 032): the main stack has no room for it.
 */
export class Likeness extends NestedStack {
  constructor(scope: Stack, id: string, platform: Platform, props: LikenessProps) {
    super(scope, id, { description: 'Likeness controls: exclusions, pause, removal, data export, exclusive contracts' });
    const { api, config, rateLimits } = platform;
    const { talentTable } = props;

    // Each of the talent's routes finds the caller's likeness through their founding application and the catalog.
    const findsLikeness = (fn: AppFunction) =>
      fn
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem'], { indexes: false })
        .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false });

    const exclusions = findsLikeness(
      new AppFunction(this, 'UpdateLikeness', { entry: 'functions/likeness/routes/update-likeness/handler.ts', description: 'PATCH /me/likeness: an accepted talent\'s excluded industries' }),
    ).bindTable(talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem']);
    rateLimits.bind(exclusions);
    api.route('PATCH /me/likeness', exclusions, 'accepted-talent');

    const status = findsLikeness(
      new AppFunction(this, 'GetLikeness', { entry: 'functions/likeness/routes/get-likeness/handler.ts', description: 'GET /me/likeness: an accepted talent\'s likeness state, pause, removal and contract' }),
    ).bindTable(talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false });
    api.route('GET /me/likeness', status, 'accepted-talent');

    const pauseOrResume = (id: string, entry: string, description: string) => {
      const fn = findsLikeness(new AppFunction(this, id, { entry, description })).bindTable(talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
      rateLimits.bind(fn);
      return fn;
    };
    const pause = pauseOrResume('PauseLikeness', 'functions/likeness/routes/pause-likeness/handler.ts', 'POST /me/likeness/pause: an accepted talent pauses their likeness');
    api.route('POST /me/likeness/pause', pause, 'accepted-talent');
    const resume = pauseOrResume('ResumeLikeness', 'functions/likeness/routes/resume-likeness/handler.ts', 'POST /me/likeness/resume: an accepted talent resumes their likeness');
    api.route('POST /me/likeness/resume', resume, 'accepted-talent');

    const removal = platform.email.bindOutbox(
      findsLikeness(
        new AppFunction(this, 'RequestRemoval', {
          entry: 'functions/likeness/routes/request-removal/handler.ts',
          description: 'POST /me/likeness/removal: an accepted talent requests removal after the notice; emails them',
          environment: { REMOVAL_NOTICE_SECONDS: String(config.removalNoticeSeconds) },
        }),
      ).bindTable(talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false }),
    );
    rateLimits.bind(removal);
    api.route('POST /me/likeness/removal', removal, 'accepted-talent');
    const cancel = findsLikeness(
      new AppFunction(this, 'CancelRemoval', { entry: 'functions/likeness/routes/cancel-removal/handler.ts', description: 'DELETE /me/likeness/removal: an accepted talent cancels a removal during its notice' }),
    ).bindTable(talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
    rateLimits.bind(cancel);
    api.route('DELETE /me/likeness/removal', cancel, 'accepted-talent');

    const dataExport = findsLikeness(
      new AppFunction(this, 'ExportMyData', {
        entry: 'functions/likeness/routes/export-my-data/handler.ts',
        description: 'GET /me/data-export: everything held about an accepted talent, as a JSON download',
        environment: { SITE_URL: platform.siteUrl },
      }),
    )
      .bindTable(talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['GetItem', 'Query'], { indexes: false })
      .addEnvironment('TRAINING_TABLE', props.trainingTable.tableName);
    // The talent's trainings: a Query on the Training table's byTalent index (granted by name), nothing else.
    dataExport.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [props.trainingsByTalentArn] }));
    rateLimits.bind(dataExport);
    api.route('GET /me/data-export', dataExport, 'accepted-talent');

    // Hourly: removals whose notice ended (Likeness.Removed published, then removedAt, model
    // cleared, email) and contracts' notices; then every email waiting in the outbox (decision 041).
    const schedule = this.contractNotices(
      new AppFunction(this, 'ScheduleJob', {
        entry: 'functions/likeness/triggers/likeness-schedule/handler.ts',
        description: 'Hourly: carries out removals whose notice ended, sends exclusive contracts\' notices and the outbox\'s waiting emails',
        timeout: Duration.minutes(2),
      }),
      platform,
      props,
      { drainsOutbox: true },
    ).bindBus(platform.bus);
    // The twin fires it by its logical id's prefix, LikenessSchedule.
    new Rule(this, 'LikenessSchedule', {
      description: 'Hourly: removals whose notice ended, exclusive contracts starting or ending',
      schedule: Schedule.rate(Duration.hours(1)),
      targets: [new LambdaFunction(schedule, { retryAttempts: 4, maxEventAge: Duration.hours(1) })],
    });

    // Exclusive contracts: the console records and ends them; a brand sees its talent.
    const readContract = new AppFunction(this, 'GetExclusiveContract', {
      entry: 'functions/likeness/routes/get-exclusive-contract/handler.ts',
      description: "GET /admin/talent/{id}/exclusive-contract: a talent's exclusive contract and the ended ones (admins only)",
    })
      .bindTable(talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
      .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['Query'], { indexes: false });
    api.route('GET /admin/talent/{id}/exclusive-contract', readContract, 'admin');
    const changesContract = (id: string, entry: string, description: string) =>
      this.contractNotices(new AppFunction(this, id, { entry, description }), platform, props)
        .bindTable(talentTable, 'TALENT_TABLE', ['GetItem'], { indexes: false })
        .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['PutItem', 'Query'], { indexes: false })
        .bindTable(props.accountsTable, 'ACCOUNTS_TABLE', ['GetItem'], { indexes: false });
    const record = changesContract('RecordExclusiveContract', 'functions/likeness/routes/record-exclusive-contract/handler.ts', "POST /admin/talent/{id}/exclusive-contract: records a talent's exclusive contract (admins only)");
    api.route('POST /admin/talent/{id}/exclusive-contract', record, 'admin');
    const end = changesContract('EndExclusiveContract', 'functions/likeness/routes/end-exclusive-contract/handler.ts', "DELETE /admin/talent/{id}/exclusive-contract: ends a talent's exclusive contract early (admins only)");
    api.route('DELETE /admin/talent/{id}/exclusive-contract', end, 'admin');
    const exclusive = new AppFunction(this, 'ListExclusiveTalent', { entry: 'functions/likeness/routes/list-exclusive-talent/handler.ts', description: 'GET /me/exclusive-talent: the talent under an exclusive contract with the calling client' })
      .bindTable(talentTable, 'TALENT_TABLE', ['Scan'], { indexes: false });
    api.route('GET /me/exclusive-talent', exclusive, 'client');
  }

  /**
   * What the exclusive contracts' notices (functions/likeness/contract-notices.ts) need, for the
   * likeness schedule's function and the console's contract route: the catalog (read the
   * contracts, clear or mark them), the contract history, the talent's application (their email)
   * and the outbox the notices are written to and sent from (the schedule also sends whatever
   * waits there: `drainsOutbox`).
   */
  private contractNotices(fn: AppFunction, platform: Platform, props: LikenessProps, options: { drainsOutbox?: boolean } = {}): AppFunction {
    return platform.email.bindOutbox(
      fn
        .bindTable(props.talentTable, 'TALENT_TABLE', ['Scan', 'UpdateItem'], { indexes: false })
        .bindTable(props.generationsTable, 'GENERATIONS_TABLE', ['PutItem'], { indexes: false })
        .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'], { indexes: false }),
      { drains: options.drainsOutbox },
    );
  }
}
