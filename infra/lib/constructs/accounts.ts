import { RemovalPolicy } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { ACCOUNTS_EMAIL_INDEX as EMAIL_INDEX, ACCOUNTS_LIST_INDEX as LIST_INDEX } from '../../../events/resource-names';
import { AppFunction, type TableAction } from '../app-function';
import type { MarketplaceApi } from './http-api';
import type { RateLimits } from './rate-limits';

export interface AccountsProps {
  api: MarketplaceApi;
  rateLimits: RateLimits;
  /** The founding applications: talent access is read from the application under the account's email. */
  applicationsTable: ITable;
  /** The catalog: an accepted talent's likeness lives on its catalog item. */
  talentTable: ITable;
  retainData: boolean;
}

/** What `GET /me` and the other routes do to an account that is not stored yet (invited people). */
const ACCOUNT_CREATE: TableAction[] = ['GetItem', 'PutItem'];

/**
 * Accounts (docs/product.md#accounts, decision 021): one table of profiles, roles, credit
 * balances and ledgers, plan requests and the console's audit, and the `/me` routes a signed-in
 * client or talent calls through the site's JWT authorizer.
 */
export class Accounts extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: AccountsProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // Profiles by email (the console's look-up of a person).
    this.table.addGlobalSecondaryIndex({
      indexName: EMAIL_INDEX,
      partitionKey: { name: 'emailKey', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    // Every profile under one key, by creation: the console's Users list.
    this.table.addGlobalSecondaryIndex({
      indexName: LIST_INDEX,
      partitionKey: { name: 'listKey', type: AttributeType.STRING },
      sortKey: { name: 'createdAt', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });

    const { api } = props;
    const route = (
      fnId: string,
      method: HttpMethod,
      path: string,
      entry: string,
      description: string,
      access: Parameters<MarketplaceApi['userRoute']>[4],
      actions: TableAction[],
    ) => {
      const fn = new AppFunction(this, fnId, { entry, description }).bindTable(this.table, 'ACCOUNTS_TABLE', actions, { indexes: false });
      api.userRoute(path, method, fn, fnId, access);
      return fn;
    };

    const getMe = route('GetMe', HttpMethod.GET, '/me', 'functions/accounts/routes/get-me/handler.ts', 'GET /me: the signed-in person\'s account, plan, credits or talent standing', 'account', ACCOUNT_CREATE);
    getMe.bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem']).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);

    const updateMe = route('UpdateMe', HttpMethod.PATCH, '/me', 'functions/accounts/routes/update-me/handler.ts', 'PATCH /me: changes the signed-in person\'s full name', 'account', [
      ...ACCOUNT_CREATE,
      'UpdateItem',
    ]);
    props.rateLimits.bind(updateMe);

    route('ListMyLedger', HttpMethod.GET, '/me/ledger', 'functions/accounts/routes/list-my-ledger/handler.ts', 'GET /me/ledger: a client\'s credit ledger, newest first', 'client', [
      ...ACCOUNT_CREATE,
      'Query',
    ]);

    const requestPlan = route(
      'RequestPlan',
      HttpMethod.POST,
      '/me/plan-requests',
      'functions/accounts/routes/request-plan/handler.ts',
      'POST /me/plan-requests: a client asks an admin for another plan',
      'client',
      [...ACCOUNT_CREATE, 'UpdateItem'],
    );
    props.rateLimits.bind(requestPlan);

    const likeness = route(
      'UpdateLikeness',
      HttpMethod.PATCH,
      '/me/likeness',
      'functions/likeness/routes/update-likeness/handler.ts',
      'PATCH /me/likeness: an accepted talent\'s excluded industries',
      'accepted-talent',
      ACCOUNT_CREATE,
    );
    likeness.bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem']).bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem', 'UpdateItem']);
    props.rateLimits.bind(likeness);
  }

  /** The post-confirmation trigger creates accounts (profile, role, balance, first ledger entry) in one transaction. */
  bindCreator(fn: AppFunction): AppFunction {
    return fn.bindTable(this.table, 'ACCOUNTS_TABLE', ACCOUNT_CREATE, { indexes: false });
  }
}
