import { actionsOf, nonLogActions, synthStack } from '../support/stack';

const { template, logicalId, statementsOf, routeKeys } = synthStack();
const accountsTable = logicalId('AWS::DynamoDB::Table', 'AccountsTable');
const adminClient = logicalId('AWS::Cognito::UserPoolClient', 'AuthAdminClient');
const adminAuthorizer = Object.entries(template.findResources('AWS::ApiGatewayV2::Authorizer')).find(
  ([, a]) => JSON.stringify(a.Properties.JwtConfiguration.Audience) === JSON.stringify([{ Ref: adminClient }]),
)![0];

const USER_ROUTES = [
  'GET /admin/users',
  'GET /admin/users/{id}',
  'PATCH /admin/users/{id}',
  'POST /admin/users/{id}/credits',
  'POST /admin/users/{id}/disable',
  'POST /admin/users/{id}/enable',
  'POST /admin/users/{id}/plan-request/decline',
];

describe("the console's Users routes", () => {
  it("sit behind the console's authorizer", () => {
    const routes = routeKeys().filter((r) => /\/admin\/users/.test(r.RouteKey));
    expect(routes.map((r) => r.RouteKey).sort()).toEqual([...USER_ROUTES].sort());
    for (const r of routes) {
      expect(r.AuthorizationType).toBe('JWT');
      expect(r.AuthorizerId).toEqual({ Ref: adminAuthorizer });
    }
  });

  it('give each function only its table actions, on the accounts table (the listing index for the list only)', () => {
    const expected: Record<string, string[]> = {
      AccountsAdminListUsers: ['BatchGetItem', 'Query'],
      AccountsAdminGetUser: ['BatchGetItem', 'GetItem', 'Query'],
      AccountsAdminGrantCredits: ['GetItem', 'PutItem', 'UpdateItem'],
    };
    for (const [fn, actions] of Object.entries(expected)) {
      expect(nonLogActions(statementsOf(fn))).toEqual(actions.map((a) => `dynamodb:${a}`));
    }
    const tableArn = { 'Fn::GetAtt': [accountsTable, 'Arn'] };
    const list = statementsOf('AccountsAdminListUsers').filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(list[0]!.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]);
    const grant = statementsOf('AccountsAdminGrantCredits').filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(grant[0]!.Resource).toEqual(tableArn);
  });

  it('let only disable and enable change users, in this pool only', () => {
    const pool = { 'Fn::GetAtt': [logicalId('AWS::Cognito::UserPool', 'AuthUserPool'), 'Arn'] };
    const cognitoOf = (fn: string) => statementsOf(fn).filter((s) => actionsOf(s).some((a) => a.startsWith('cognito-idp:')));
    expect(cognitoOf('AccountsAdminDisableUser')).toEqual([
      expect.objectContaining({ Action: ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminUserGlobalSignOut'], Resource: pool }),
    ]);
    expect(cognitoOf('AccountsAdminEnableUser')).toEqual([expect.objectContaining({ Action: 'cognito-idp:AdminEnableUser', Resource: pool })]);
    for (const fn of ['AccountsAdminListUsers', 'AccountsAdminGetUser', 'AccountsAdminSetUserPlan', 'AccountsAdminGrantCredits', 'AccountsAdminDeclinePlanRequest']) {
      expect(cognitoOf(fn)).toEqual([]);
    }
    expect(JSON.stringify(template.toJSON())).not.toMatch(/"cognito-idp:\*"/);
  });
});
