import { Duration, Stack, type NestedStack } from 'aws-cdk-lib';
import { UserPoolOperation } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { REPORT_DECIDED } from '../../../events/reports';
import { ACCOUNTS_EMAIL_INDEX, ACCOUNTS_LIST_INDEX } from '../../../events/resource-names';
import { AppFunction, type TableAction } from '../platform/app-function';
import { consumeEvents, retriedRule } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

export interface AccountsProps {
  /** The founding applications: talent access is read from the application under the account's email. */
  applicationsTable: ITable;
  /** The catalog: an accepted talent's likeness lives on its catalog item. */
  talentTable: ITable;
}

/** What `GET /me` and the other routes do to an account that is not stored yet (invited people). */
const ACCOUNT_CREATE: TableAction[] = ['GetItem', 'PutItem'];

// What the console's Users routes' store calls need: the account's detail reads the profile, the
// balance (a batch read) and the account's partition (ledger, audit); a change is one transaction
// of updates and puts.
const READ_DETAIL: TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];
const CHANGE: TableAction[] = ['UpdateItem', 'PutItem'];

/**
 * Accounts (functions/accounts, docs/product.md#accounts, decision 021): one table of profiles,
 * roles, credit balances and ledgers, plan requests and the console's audit; the `/me` routes a
 * signed-in client or talent calls; the user pool's triggers, which create an account once its
 * person confirms; the monthly allowance of paid plans; and the console's Users resource.
 */
export class Accounts extends Construct {
  readonly table: AppTable;

  constructor(scope: Construct, id: string, platform: Platform, props: AccountsProps) {
    super(scope, id);
    this.table = new AppTable(this, 'Table', {
      partitionKey: 'pk',
      sortKey: 'sk',
      indexes: [
        // Profiles by email (the console's look-up of a person).
        { name: ACCOUNTS_EMAIL_INDEX, partitionKey: 'emailKey' },
        // Every profile under one key, by creation: the console's Users list.
        { name: ACCOUNTS_LIST_INDEX, partitionKey: 'listKey', sortKey: 'createdAt' },
      ],
      retain: platform.config.retainData,
    });
    this.meRoutes(platform, props);
    this.userPoolTriggers(platform);
    this.squatting(platform);
    this.monthlyAllowance();
    this.creditExpiry();
    this.consoleUsers(platform);
  }

  /** The signed-in person's own account: each function reads the base table only. */
  private meRoutes({ api, rateLimits }: Platform, props: AccountsProps): void {
    const getMe = new AppFunction(this, 'GetMe', { entry: 'functions/accounts/routes/get-me/handler.ts', description: 'GET /me: the signed-in person\'s account, plan, credits or talent standing' })
      .bindTable(this.table, 'ACCOUNTS_TABLE', ACCOUNT_CREATE, { indexes: false })
      .bindTable(props.applicationsTable, 'APPLICATIONS_TABLE', ['GetItem'])
      .bindTable(props.talentTable, 'TALENT_TABLE', ['GetItem']);
    api.route('GET /me', getMe, 'account');

    const updateMe = new AppFunction(this, 'UpdateMe', { entry: 'functions/accounts/routes/update-me/handler.ts', description: 'PATCH /me: changes the signed-in person\'s full name' })
      .bindTable(this.table, 'ACCOUNTS_TABLE', [...ACCOUNT_CREATE, 'UpdateItem'], { indexes: false });
    rateLimits.bind(updateMe);
    api.route('PATCH /me', updateMe, 'account');

    const ledger = new AppFunction(this, 'ListMyLedger', { entry: 'functions/accounts/routes/list-my-ledger/handler.ts', description: 'GET /me/ledger: a client\'s credit ledger, newest first' })
      .bindTable(this.table, 'ACCOUNTS_TABLE', [...ACCOUNT_CREATE, 'Query'], { indexes: false });
    api.route('GET /me/ledger', ledger, 'client');
  }

  /**
   * The user pool's triggers: the pre-sign-up trigger refuses a self sign-up that does not choose
   * client or talent, the post-confirmation trigger creates the account (profile, role, balance,
   * first ledger entry, in one transaction) and adds the person to their role's group.
   * Their grants on the pool are inline policies on their roles: the pool's ARN stays out of
   * the functions' default policies, so the pool and its triggers make no dependency cycle.
   */
  private userPoolTriggers({ userPool, siteUrl }: Platform): void {
    const preSignUp = new AppFunction(this, 'PreSignUp', { entry: 'functions/accounts/triggers/pre-sign-up/handler.ts', description: 'Refuses self sign-ups that do not choose client or talent' });
    const postConfirmation = new AppFunction(this, 'PostConfirmation', { entry: 'functions/accounts/triggers/post-confirmation/handler.ts', description: 'Creates a confirmed person\'s account and adds them to the group of their role' })
      .bindTable(this.table, 'ACCOUNTS_TABLE', ACCOUNT_CREATE, { indexes: false });
    const preTokenGeneration = new AppFunction(this, 'PreTokenGeneration', { entry: 'functions/accounts/triggers/pre-token-generation/handler.ts', description: 'Marks the id token of a person who signed in with two-factor sign-in (TOTP); admin routes need the mark' });
    const customMessage = new AppFunction(this, 'CustomMessage', {
      entry: 'functions/accounts/triggers/custom-message/handler.ts',
      description: 'Our subject and body for the codes and invitations Cognito emails',
      environment: { SITE_URL: siteUrl.replace(/\/$/, '') },
    });
    userPool.addTrigger(UserPoolOperation.PRE_SIGN_UP, preSignUp);
    userPool.addTrigger(UserPoolOperation.CUSTOM_MESSAGE, customMessage);
    userPool.addTrigger(UserPoolOperation.POST_CONFIRMATION, postConfirmation);
    userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION, preTokenGeneration);
    // Every sign-in is recorded on the profile: the Free plan's monthly credits go to accounts
    // that signed in (decision 043). It may only set that one attribute of existing profiles.
    const postAuthentication = new AppFunction(this, 'PostAuthentication', {
      entry: 'functions/accounts/triggers/post-authentication/handler.ts',
      description: 'Records a person\'s sign-in on their profile (the Free plan\'s monthly credits need one)',
    }).bindTable(this.table, 'ACCOUNTS_TABLE', ['UpdateItem'], { indexes: false });
    userPool.addTrigger(UserPoolOperation.POST_AUTHENTICATION, postAuthentication);
    this.poolPolicy(preTokenGeneration, 'PreTokenGenerationReadUser', ['cognito-idp:AdminGetUser'], userPool.userPoolArn);
    this.poolPolicy(postConfirmation, 'PostConfirmationGroups', ['cognito-idp:AdminAddUserToGroup'], userPool.userPoolArn);
  }

  /**
   * Addresses nobody proved they own (decision 040): every hour, sign-ups left unconfirmed for
   * more than a day are removed; and `POST /sign-up-conflicts`, which the sign-up page calls when
   * Cognito says the address is taken, frees an address held by an unconfirmed sign-up or emails
   * the owner of an account in use. Both may read and remove users of this pool only.
   */
  private squatting({ api, userPool, email, rateLimits }: Platform): void {
    const remove = new AppFunction(this, 'RemoveUnconfirmedUsers', {
      entry: 'functions/accounts/triggers/remove-unconfirmed-users/handler.ts',
      description: 'Removes sign-ups left unconfirmed for more than a day, every hour',
      environment: { USER_POOL_ID: userPool.userPoolId },
      timeout: Duration.minutes(5),
    });
    this.poolPolicy(remove, 'RemoveUnconfirmedUsersPool', ['cognito-idp:ListUsers', 'cognito-idp:AdminDeleteUser'], userPool.userPoolArn);
    // In the stack's own scope, so its logical id starts with UnconfirmedUsersSchedule (the twin
    // fires it by that prefix).
    retriedRule(Stack.of(this), 'UnconfirmedUsersSchedule', {
      description: 'Every hour: sign-ups left unconfirmed for more than a day are removed',
      schedule: Schedule.rate(Duration.hours(1)),
      deadLetterId: 'UnconfirmedUsersDeadLetters',
      deadLetterOf: 'the unconfirmed users schedule target',
      target: (retry) => new LambdaFunction(remove, retry),
    });

    const conflict = new AppFunction(this, 'ResolveSignUpConflict', {
      entry: 'functions/accounts/routes/resolve-sign-up-conflict/handler.ts',
      description: 'POST /sign-up-conflicts: frees an address held by an unconfirmed sign-up, or emails the owner of the account; the same answer either way',
      environment: { USER_POOL_ID: userPool.userPoolId },
    }).bindEmail(email);
    rateLimits.bind(conflict);
    this.poolPolicy(conflict, 'ResolveSignUpConflictPool', ['cognito-idp:AdminGetUser', 'cognito-idp:AdminDeleteUser'], userPool.userPoolArn);
    api.route('POST /sign-up-conflicts', conflict, 'public');
  }

  /**
   * The monthly credits, on the 1st at 00:05 UTC: the allowance of plans an admin set, and the
   * Free plan's credits for clients who signed in during the month before (decision 043).
   */
  private monthlyAllowance(): void {
    const allowance = new AppFunction(this, 'MonthlyAllowance', {
      entry: 'functions/accounts/triggers/monthly-allowance/handler.ts',
      description: 'Grants each client its plan\'s monthly credits once a month: plans an admin set, and Free clients who signed in',
      timeout: Duration.minutes(5),
    }).bindTable(this.table, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'BatchGetItem'], { indexes: false });
    allowance.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${this.table.tableArn}/index/${ACCOUNTS_LIST_INDEX}`] }));
    // In the stack's own scope, so its logical id starts with MonthlyAllowanceSchedule (the twin
    // fires it by that prefix). Retried like every rule of the stack, with its dead letters kept.
    retriedRule(Stack.of(this), 'MonthlyAllowanceSchedule', {
      description: 'The 1st of each month, 00:05 UTC: the monthly credits of admin-set plans and active Free clients',
      schedule: Schedule.cron({ minute: '5', hour: '0', day: '1', month: '*', year: '*' }),
      deadLetterId: 'MonthlyAllowanceDeadLetters',
      deadLetterOf: 'the monthly allowance schedule target',
      target: (retry) => new LambdaFunction(allowance, retry),
    });
  }

  /**
   * Plan credits expire (decision 043): once a day, every client balance's lots whose time ran
   * out leave it with an `expire` entry. It lists clients through the listing index and changes
   * balances through the ledger (a read, then one transaction of entry and balance).
   */
  private creditExpiry(): void {
    const expire = new AppFunction(this, 'ExpireCredits', {
      entry: 'functions/accounts/triggers/expire-credits/handler.ts',
      description: 'Once a day: plan credits whose time ran out leave each client\'s balance with an expire entry',
      timeout: Duration.minutes(10),
    }).bindTable(this.table, 'ACCOUNTS_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'BatchGetItem'], { indexes: false });
    expire.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${this.table.tableArn}/index/${ACCOUNTS_LIST_INDEX}`] }));
    // In the stack's own scope, so its logical id starts with CreditExpirySchedule (the twin fires
    // it by that prefix).
    retriedRule(Stack.of(this), 'CreditExpirySchedule', {
      description: 'Every day, 00:15 UTC: expired plan credits leave client balances',
      schedule: Schedule.cron({ minute: '15', hour: '0' }),
      deadLetterId: 'CreditExpiryDeadLetters',
      deadLetterOf: 'the credit expiry schedule target',
      target: (retry) => new LambdaFunction(expire, retry),
    });
  }

  /**
   * The review console's Users resource (docs/product.md#console-users): list and show accounts,
   * set a client's plan, grant credits, decline plan requests, disable or enable an account. Each
   * route has a function of its own with exactly the table actions its store calls need;
   * disabling and enabling may also change the user in this pool only.
   */
  private consoleUsers({ api, userPool }: Platform): void {
    const user = (id: string, entry: string, description: string, actions: TableAction[]) =>
      new AppFunction(this, id, { entry, description }).bindTable(this.table, 'ACCOUNTS_TABLE', actions, { indexes: false });
    const withPool = (fn: AppFunction, actions: string[]) => {
      fn.addEnvironment('USER_POOL_ID', userPool.userPoolId);
      this.poolPolicy(fn, `${fn.node.id}UserPool`, actions, userPool.userPoolArn);
      return fn;
    };

    // The list searches by email and lists by creation: the table's indexes.
    const list = new AppFunction(this, 'AdminListUsers', { entry: 'functions/accounts/routes/list-users/handler.ts', description: 'GET /admin/users: accounts, searched by email and filtered by role, plan and pending plan request (admins only)' })
      .bindTable(this.table, 'ACCOUNTS_TABLE', ['Query', 'BatchGetItem']);
    api.route('GET /admin/users', list, 'admin');
    const get = user('AdminGetUser', 'functions/accounts/routes/get-user/handler.ts', 'GET /admin/users/{id}: one account with its ledger and audit trail (admins only)', READ_DETAIL);
    api.route('GET /admin/users/{id}', get, 'admin');
    const setPlan = user(
      'AdminSetUserPlan',
      'functions/accounts/routes/update-user/handler.ts',
      'PATCH /admin/users/{id}: sets a client\'s plan, recorded in the audit (admins only)',
      [...READ_DETAIL, ...CHANGE],
    );
    api.route('PATCH /admin/users/{id}', setPlan, 'admin');
    const credits = user(
      'AdminGrantCredits',
      'functions/accounts/routes/grant-credits/handler.ts',
      'POST /admin/users/{id}/credits: grants a client credits with a reason, once per Idempotency-Key (admins only)',
      ['GetItem', ...CHANGE],
    );
    api.route('POST /admin/users/{id}/credits', credits, 'admin');
    const disable = withPool(
      user(
        'AdminDisableUser',
        'functions/accounts/routes/disable-user/handler.ts',
        'POST /admin/users/{id}/disable: turns off sign-in, ends every session, flags the account (admins only)',
        [...READ_DETAIL, ...CHANGE],
      ),
      ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminUserGlobalSignOut'],
    );
    api.route('POST /admin/users/{id}/disable', disable, 'admin');
    const enable = withPool(
      user(
        'AdminEnableUser',
        'functions/accounts/routes/enable-user/handler.ts',
        'POST /admin/users/{id}/enable: turns sign-in back on and clears the account\'s flag (admins only)',
        [...READ_DETAIL, ...CHANGE],
      ),
      ['cognito-idp:AdminEnableUser'],
    );
    api.route('POST /admin/users/{id}/enable', enable, 'admin');
    const decline = user(
      'AdminDeclinePlanRequest',
      'functions/accounts/routes/decline-plan-request/handler.ts',
      'POST /admin/users/{id}/plan-request/decline: declines a client\'s pending plan request (admins only)',
      [...READ_DETAIL, ...CHANGE],
    );
    api.route('POST /admin/users/{id}/plan-request/decline', decline, 'admin');
  }

  /**
   * A misuse report decided "suspend the client" (docs/product.md#reports-and-takedown): the
   * client's account is disabled as the console's disable does it, with the report in its audit.
   * Built in the Reports nested stack (`scope`): the main stack has no room left under
   * CloudFormation's 500 resources (decision 025).
   */
  suspendReportedClients(scope: NestedStack, { bus, userPool }: Platform): void {
    const suspend = new AppFunction(scope, 'SuspendReportedClient', {
      entry: 'functions/accounts/triggers/suspend-reported-client/handler.ts',
      description: 'Report.Decided (suspend-client): turns off the client\'s sign-in, ends every session, flags the account',
      environment: { USER_POOL_ID: userPool.userPoolId },
    }).bindTable(this.table, 'ACCOUNTS_TABLE', [...READ_DETAIL, ...CHANGE], { indexes: false });
    this.poolPolicy(suspend, 'SuspendReportedClientUserPool', ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminUserGlobalSignOut'], userPool.userPoolArn, scope);
    consumeEvents(scope, 'OnReportDecidedSuspend', { bus, detailType: REPORT_DECIDED, consumer: suspend, consequence: 'the client suspended when the decision says so' });
  }

  /** An inline policy on the function's role allowing `actions` on the user pool. */
  private poolPolicy(fn: AppFunction, id: string, actions: string[], poolArn: string, scope: Construct = this): void {
    fn.role!.attachInlinePolicy(new Policy(scope, id, { statements: [new PolicyStatement({ actions, resources: [poolArn] })] }));
  }
}
