import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { AppFunction, type TableAction } from '../app-function';
import type { MarketplaceApi } from './http-api';

export interface AccountAdminProps {
  api: MarketplaceApi;
  /** The accounts table (profiles, balances, ledger, audit). */
  accountsTable: ITable;
  userPool: IUserPool;
}

interface UserRoute {
  id: string;
  method: HttpMethod;
  path: string;
  entry: string;
  description: string;
  actions: TableAction[];
  /** Reads the table's listing index (only the list does). */
  indexes?: boolean;
  /** User pool actions on this pool only. */
  cognito?: string[];
}

// What each route's store calls need: the account's detail reads the profile, the balance (a
// batch read) and the account's partition (ledger, audit); a change is one transaction of
// updates and puts.
const READ_DETAIL: TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];
const CHANGE: TableAction[] = ['UpdateItem', 'PutItem'];

const ROUTES: UserRoute[] = [
  {
    id: 'AdminListUsers',
    method: HttpMethod.GET,
    path: '/admin/users',
    entry: 'functions/accounts/routes/list-users/handler.ts',
    description: 'GET /admin/users: accounts, searched by email and filtered by role, plan and pending plan request (admins only)',
    actions: ['Query', 'BatchGetItem'],
    indexes: true,
  },
  {
    id: 'AdminGetUser',
    method: HttpMethod.GET,
    path: '/admin/users/{id}',
    entry: 'functions/accounts/routes/get-user/handler.ts',
    description: 'GET /admin/users/{id}: one account with its ledger and audit trail (admins only)',
    actions: READ_DETAIL,
  },
  {
    id: 'AdminSetUserPlan',
    method: HttpMethod.PATCH,
    path: '/admin/users/{id}',
    entry: 'functions/accounts/routes/update-user/handler.ts',
    description: 'PATCH /admin/users/{id}: sets a client\'s plan, recorded in the audit (admins only)',
    actions: [...READ_DETAIL, ...CHANGE],
  },
  {
    id: 'AdminGrantCredits',
    method: HttpMethod.POST,
    path: '/admin/users/{id}/credits',
    entry: 'functions/accounts/routes/grant-credits/handler.ts',
    description: 'POST /admin/users/{id}/credits: grants a client credits with a reason, once per Idempotency-Key (admins only)',
    actions: ['GetItem', ...CHANGE],
  },
  {
    id: 'AdminDisableUser',
    method: HttpMethod.POST,
    path: '/admin/users/{id}/disable',
    entry: 'functions/accounts/routes/disable-user/handler.ts',
    description: 'POST /admin/users/{id}/disable: turns off sign-in, ends every session, flags the account (admins only)',
    actions: [...READ_DETAIL, ...CHANGE],
    cognito: ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminUserGlobalSignOut'],
  },
  {
    id: 'AdminEnableUser',
    method: HttpMethod.POST,
    path: '/admin/users/{id}/enable',
    entry: 'functions/accounts/routes/enable-user/handler.ts',
    description: 'POST /admin/users/{id}/enable: turns sign-in back on and clears the account\'s flag (admins only)',
    actions: [...READ_DETAIL, ...CHANGE],
    cognito: ['cognito-idp:AdminEnableUser'],
  },
  {
    id: 'AdminDeclinePlanRequest',
    method: HttpMethod.POST,
    path: '/admin/users/{id}/plan-request/decline',
    entry: 'functions/accounts/routes/decline-plan-request/handler.ts',
    description: 'POST /admin/users/{id}/plan-request/decline: declines a client\'s pending plan request (admins only)',
    actions: [...READ_DETAIL, ...CHANGE],
  },
];

/**
 * The review console's Users resource (docs/product.md#console-users): the admin routes that
 * list and show accounts, set a client's plan, grant credits, decline plan requests and disable
 * or enable an account. Each route has a function of its own with exactly the table actions its
 * store calls need; disabling and enabling may also change the user in this pool only.
 */
export class AccountAdmin extends Construct {
  constructor(scope: Construct, id: string, props: AccountAdminProps) {
    super(scope, id);
    for (const r of ROUTES) {
      const fn = new AppFunction(this, r.id, {
        entry: r.entry,
        description: r.description,
        ...(r.cognito ? { environment: { USER_POOL_ID: props.userPool.userPoolId } } : {}),
      }).bindTable(props.accountsTable, 'ACCOUNTS_TABLE', r.actions, { indexes: r.indexes ?? false });
      if (r.cognito) {
        // An inline policy on the role, as the pool's triggers get theirs (constructs/auth.ts):
        // the pool's ARN stays out of the function's default policy, so no dependency cycle.
        fn.role!.attachInlinePolicy(
          new Policy(this, `${r.id}UserPool`, { statements: [new PolicyStatement({ actions: r.cognito, resources: [props.userPool.userPoolArn] })] }),
        );
      }
      props.api.adminRoute(r.path, r.method, fn, r.id);
    }
  }
}
