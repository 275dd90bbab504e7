import type { NestedStack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { REPORT_DECIDED } from '../../../events/reports';
import { TalentSeed } from '../../../events/talent-seed';
import { AppFunction } from '../platform/app-function';
import { consumeEvents } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { SeedItems } from '../platform/seed';
import { AppTable } from '../platform/tables';

/** Seed file of the talent table: the sample talent (fictional people). */
const TALENT_SEED_FILE = 'infra/seed/talent.json';

/**
 * The talent catalog (functions/catalog): a table of talent (key `id`, the profile's slug),
 * seeded with the sample talent, the public routes the Talent Library and profiles read, and the
 * console's view of it (hidden talent too, and the fields reviewers edit), and the removal of a
 * sample a misuse report's decision names.
 */
export class Catalog extends Construct {
  readonly table: AppTable;

  constructor(scope: Construct, id: string, platform: Platform) {
    super(scope, id);
    const { api } = platform;
    this.table = new AppTable(this, 'TalentTable', { partitionKey: 'id', retain: platform.config.retainData });
    new SeedItems(this, 'Seed', {
      table: this.table,
      file: TALENT_SEED_FILE,
      // Catalog fields and likeness controls (excluded industries, the preview model's config).
      parse: (data) => TalentSeed.parse(data),
      keyAttribute: 'id',
    });

    const list = new AppFunction(this, 'ListTalent', { entry: 'functions/catalog/routes/list-talent/handler.ts', description: 'GET /talent: the public Talent Library' })
      .bindTable(this.table, 'TALENT_TABLE', ['Scan'], { indexes: false });
    api.route('GET /talent', list, 'public');
    const get = new AppFunction(this, 'GetTalent', { entry: 'functions/catalog/routes/get-talent/handler.ts', description: 'GET /talent/{id}: one talent profile' })
      .bindTable(this.table, 'TALENT_TABLE', ['GetItem']);
    api.route('GET /talent/{id}', get, 'public');

    const adminList = new AppFunction(this, 'AdminListTalent', { entry: 'functions/catalog/routes/list-talent-admin/handler.ts', description: 'GET /admin/talent: the whole catalog (admins only)' })
      .bindTable(this.table, 'TALENT_TABLE', ['Scan'], { indexes: false });
    api.route('GET /admin/talent', adminList, 'admin');
    const adminGet = new AppFunction(this, 'AdminGetTalent', { entry: 'functions/catalog/routes/get-talent-admin/handler.ts', description: 'GET /admin/talent/{id}: one talent, any status (admins only)' })
      .bindTable(this.table, 'TALENT_TABLE', ['GetItem']);
    api.route('GET /admin/talent/{id}', adminGet, 'admin');
    const update = new AppFunction(this, 'AdminUpdateTalent', { entry: 'functions/catalog/routes/update-talent/handler.ts', description: 'PATCH /admin/talent/{id}: edits tagline, bio, tags, featured, status (admins only)' })
      .bindTable(this.table, 'TALENT_TABLE', ['UpdateItem']);
    api.route('PATCH /admin/talent/{id}', update, 'admin');
  }

  /**
   * A misuse report decided "remove a sample" (docs/product.md#reports-and-takedown): the sample the
   * decision names leaves the talent's profile. Built in the Reports nested stack (`scope`): the
   * main stack has no room left under CloudFormation's 500 resources (decision 025).
   */
  removeReportedSamples(scope: NestedStack, { bus }: Platform): void {
    const removeSample = new AppFunction(scope, 'RemoveReportedSample', {
      entry: 'functions/catalog/triggers/remove-reported-sample/handler.ts',
      description: "Report.Decided (remove-sample): takes the sample the decision names off the talent's profile",
    }).bindTable(this.table, 'TALENT_TABLE', ['GetItem', 'UpdateItem'], { indexes: false });
    consumeEvents(scope, 'OnReportDecidedSample', { bus, detailType: REPORT_DECIDED, consumer: removeSample, consequence: "the talent's sample removed when the decision says so" });
  }
}
