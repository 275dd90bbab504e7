import { RemovalPolicy } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TalentSeed } from '../../../events/talent-seed';
import { AppFunction } from '../app-function';
import { SeedItems } from '../seed';
import type { MarketplaceApi } from './http-api';

export interface CatalogProps {
  api: MarketplaceApi;
  retainData: boolean;
}

/** Seed file of the talent table: the sample talent (fictional people). */
const TALENT_SEED_FILE = 'infra/seed/talent.json';

/**
 * The talent catalog: a table of talent (key `id`, the profile's slug), seeded with the
 * sample talent, and the public routes the Talent Library and profiles read.
 */
export class Catalog extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: CatalogProps) {
    super(scope, id);
    this.table = new Table(this, 'TalentTable', {
      partitionKey: { name: 'id', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    new SeedItems(this, 'Seed', {
      table: this.table,
      file: TALENT_SEED_FILE,
      // Catalog fields and likeness controls (excluded industries, the preview model's config).
      parse: (data) => TalentSeed.parse(data),
      keyAttribute: 'id',
    });

    const list = new AppFunction(this, 'ListTalent', {
      entry: 'functions/catalog/routes/list-talent/handler.ts',
      description: 'GET /talent: the public Talent Library',
    }).bindTable(this.table, 'TALENT_TABLE', ['Scan'], { indexes: false });
    props.api.publicRoute('/talent', HttpMethod.GET, list, 'ListTalent');

    const get = new AppFunction(this, 'GetTalent', {
      entry: 'functions/catalog/routes/get-talent/handler.ts',
      description: 'GET /talent/{id}: one talent profile',
    }).bindTable(this.table, 'TALENT_TABLE', ['GetItem']);
    props.api.publicRoute('/talent/{id}', HttpMethod.GET, get, 'GetTalent');

    // The console's view: hidden talent too, and the fields reviewers edit.
    props.api.adminTableRoutes(this, this.table, 'TALENT_TABLE', [
      { id: 'AdminListTalent', route: 'GET /admin/talent', entry: 'functions/catalog/routes/list-talent-admin/handler.ts', description: 'GET /admin/talent: the whole catalog (admins only)', actions: ['Scan'] },
      { id: 'AdminGetTalent', route: 'GET /admin/talent/{id}', entry: 'functions/catalog/routes/get-talent-admin/handler.ts', description: 'GET /admin/talent/{id}: one talent, any status (admins only)', actions: ['GetItem'] },
      { id: 'AdminUpdateTalent', route: 'PATCH /admin/talent/{id}', entry: 'functions/catalog/routes/update-talent/handler.ts', description: 'PATCH /admin/talent/{id}: edits tagline, bio, tags, featured, status (admins only)', actions: ['UpdateItem'] },
    ]);
  }
}
