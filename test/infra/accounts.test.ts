// The Accounts construct (docs/product.md#accounts, decision 021): the table, the /me routes
// behind the site's authorizer, and grants no wider than each function's calls.
import { Template } from 'aws-cdk-lib/assertions';
import { synthTemplate } from '../../infra/local/template';
import { nonLogActions } from '../support/stack';

// PATCH /me/likeness belongs to the likeness domain, a nested stack: the routes and grants are read
// from the app's template with the nested stacks flattened in, as the twin reads it (decision 032).
const template = Template.fromJSON(synthTemplate({ stage: 'test' }));
const logicalId = (type: string, prefix: string) => {
  const id = Object.keys(template.findResources(type)).find((k) => k.startsWith(prefix));
  if (!id) throw new Error(`no ${type} ${prefix}`);
  return id;
};
const statementsOf = (functionPrefix: string): Array<{ Action: string | string[]; Resource: unknown }> => {
  const roleId = template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', functionPrefix)].Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
};
/** The function a route's integration invokes. */
const functionOf = (route: ReturnType<Template['findResources']>[string]): string =>
  template.findResources('AWS::ApiGatewayV2::Integration')[route.Properties.Target['Fn::Join'][1][1].Ref].Properties.IntegrationUri['Fn::GetAtt'][0];
/** The routes the accounts domain's functions serve, and the likeness domain's UpdateLikeness. */
const accountsRoutes = () => Object.values(template.findResources('AWS::ApiGatewayV2::Route')).filter((r) => /^(Accounts|UpdateLikeness)/.test(functionOf(r)));
const routeKeys = () => accountsRoutes().map((r) => r.Properties);
const tableId = logicalId('AWS::DynamoDB::Table', 'AccountsTable');
const applicationsId = logicalId('AWS::DynamoDB::Table', 'FoundingApplicationsTable');
const talentId = logicalId('AWS::DynamoDB::Table', 'CatalogTalentTable');
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

/** Actions a function may take on one table (its ARN or its indexes). */
const actionsOn = (fn: string, id: string) =>
  nonLogActions(statementsOf(fn).filter((s) => JSON.stringify(s.Resource).includes(`"${id}"`)));

describe('accounts table', () => {
  it('has pk/sk keys, the email and listing indexes, point-in-time recovery and managed encryption', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[tableId].Properties;
    expect(table.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const indexes = Object.fromEntries(table.GlobalSecondaryIndexes.map((i: { IndexName: string; KeySchema: unknown }) => [i.IndexName, i.KeySchema]));
    expect(indexes).toEqual({
      byEmail: [{ AttributeName: 'emailKey', KeyType: 'HASH' }],
      byCreated: [
        { AttributeName: 'listKey', KeyType: 'HASH' },
        { AttributeName: 'createdAt', KeyType: 'RANGE' },
      ],
    });
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.SSESpecification).toEqual({ SSEEnabled: true });
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
  });
});

describe('/me routes', () => {
  const expected: Record<string, string> = {
    'GET /me': 'account',
    'PATCH /me': 'account',
    'GET /me/ledger': 'client',
    'PATCH /me/likeness': 'accepted-talent',
  };

  it('sit behind the site client\'s JWT authorizer, each with its access class', () => {
    const authorizers = template.findResources('AWS::ApiGatewayV2::Authorizer');
    const webAuthorizer = Object.entries(authorizers).find(([, a]) => JSON.stringify(a.Properties.JwtConfiguration.Audience).includes('WebClient'))![0];
    const routes = accountsRoutes().filter((r) => /^\w+ \/me(\/|$)/.test(r.Properties.RouteKey));
    expect(Object.fromEntries(routes.map((r) => [r.Properties.RouteKey, r.Metadata['app:access']]))).toEqual(expected);
    for (const r of routes) {
      expect(r.Properties.AuthorizationType).toBe('JWT');
      expect(r.Properties.AuthorizerId).toEqual({ Ref: webAuthorizer });
    }
    expect(routeKeys().filter((r) => /^\w+ \/me(\/|$)/.test(r.RouteKey))).toHaveLength(4);
  });

  it('grant each function only the calls it makes', () => {
    // GET /me reads; it can create an invited person's account, and write nothing else anywhere.
    expect(actionsOn('AccountsGetMe', tableId)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    expect(actionsOn('AccountsGetMe', applicationsId)).toEqual(['dynamodb:GetItem']);
    expect(actionsOn('AccountsGetMe', talentId)).toEqual(['dynamodb:GetItem']);
    expect(actionsOn('AccountsUpdateMe', tableId)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(actionsOn('AccountsListMyLedger', tableId)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query']);
    // Only the likeness route may change the catalog, and only by UpdateItem.
    expect(actionsOn('UpdateLikeness', talentId)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(actionsOn('UpdateLikeness', tableId)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    for (const fn of ['AccountsGetMe', 'AccountsUpdateMe', 'AccountsListMyLedger', 'UpdateLikeness']) {
      const statements = statementsOf(fn);
      expect(JSON.stringify(statements)).not.toMatch(/"Resource":"\*"/);
      // No function reads the table's indexes (the console's Users functions do).
      expect(JSON.stringify(statements.filter((s) => JSON.stringify(s.Resource).includes(tableId)))).not.toMatch(/index/);
    }
    for (const fn of ['AccountsUpdateMe', 'AccountsListMyLedger']) {
      expect(actionsOn(fn, talentId)).toEqual([]);
      expect(actionsOn(fn, applicationsId)).toEqual([]);
    }
  });

  it('limits changes to one\'s own profile and likeness with the rate limiter (one conditional UpdateItem on the counters)', () => {
    const rateId = logicalId('AWS::DynamoDB::Table', 'RateLimitsTable');
    for (const fn of ['AccountsUpdateMe', 'UpdateLikeness']) expect({ fn, actions: actionsOn(fn, rateId) }).toEqual({ fn, actions: ['dynamodb:UpdateItem'] });
    for (const fn of ['AccountsGetMe', 'AccountsListMyLedger']) expect({ fn, actions: actionsOn(fn, rateId) }).toEqual({ fn, actions: [] });
  });
});

describe('post-confirmation trigger', () => {
  it('may create accounts (put and read) and nothing else in the table', () => {
    expect(actionsOn('AccountsPostConfirmation', tableId)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    const fn = template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', 'AccountsPostConfirmation')];
    expect(fn.Properties.Environment.Variables.ACCOUNTS_TABLE).toEqual({ Ref: tableId });
    expect(statementsOf('AccountsPostConfirmation').find((s) => JSON.stringify(s.Action).includes('dynamodb:PutItem'))?.Resource).toEqual(arnOf(tableId));
  });
});

describe('post-authentication trigger', () => {
  it('is the user pool\'s PostAuthentication trigger and may only update a profile (the sign-in record)', () => {
    const pool = Object.values(template.findResources('AWS::Cognito::UserPool'))[0];
    expect(JSON.stringify(pool.Properties.LambdaConfig.PostAuthentication)).toContain(logicalId('AWS::Lambda::Function', 'AccountsPostAuthentication'));
    expect(actionsOn('AccountsPostAuthentication', tableId)).toEqual(['dynamodb:UpdateItem']);
    expect(nonLogActions(statementsOf('AccountsPostAuthentication'))).toEqual(['dynamodb:UpdateItem']);
  });
});

describe('credit expiry', () => {
  it('runs the sweep once a day through a retried rule with its dead letters', () => {
    const [ruleId, rule] = Object.entries(template.findResources('AWS::Events::Rule')).find(([id]) => id.startsWith('CreditExpirySchedule'))!;
    expect(ruleId).toBeDefined();
    expect(rule.Properties.ScheduleExpression).toBe('cron(15 0 * * ? *)');
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [logicalId('AWS::Lambda::Function', 'AccountsExpireCredits'), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21_600 },
        DeadLetterConfig: expect.anything(),
      }),
    ]);
  });

  it('lets the sweep write ledger entries but never delete an item', () => {
    expect(actionsOn('AccountsExpireCredits', tableId)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(JSON.stringify(statementsOf('AccountsExpireCredits'))).not.toContain('DeleteItem');
  });
});
