import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PASSWORD_POLICY } from '../../events/account-values';
import { Auth } from '../../infra/lib/platform/auth';
import { DEFAULT_STRIPE_PRICES, stageConfig } from '../../infra/lib/platform/stage-config';
import { StaticSite } from '../../infra/lib/platform/static-site';
import { actionsOf, buildStack, NAMED_STAGE, nonLogActions, synthStack } from '../support/stack';

const GOOGLE = { googleClientId: 'google-client-1.apps.googleusercontent.com', googleClientSecretName: 'humanly/test/google-client-secret', siteUrl: 'https://humanly.example' };
const withGoogle = synthStack(GOOGLE);
const withoutGoogle = synthStack(NAMED_STAGE);
type Synthesized = Pick<typeof withGoogle, 'template' | 'logicalId'>;

/**
 * The Auth construct alone in a stack of its own, built from the stage's context: for what a
 * stage setting changes in Cognito only, where a whole synthesis each would cost seconds.
 */
function authAlone(context: Record<string, unknown>): Synthesized {
  const app = new App({ context: { stage: 'test', ...context } });
  const stack = new Stack(app, 'AuthAlone');
  new Auth(stack, 'Auth', stageConfig(app), { siteUrl: String(context.siteUrl ?? 'https://humanly.example'), configurationSetName: 'humanly-test' });
  const template = Template.fromStack(stack);
  const logicalId = (type: string, prefix: string) => {
    const id = Object.keys(template.findResources(type)).find((k) => k.startsWith(prefix));
    if (!id) throw new Error(`no ${type} ${prefix}`);
    return id;
  };
  return { template, logicalId };
}

/** The site's deployed config.json (what the stack hands StaticSite.deploy), tokens resolved. */
function webConfig(context: Record<string, unknown>): Record<string, unknown> {
  const configs: Array<Record<string, unknown>> = [];
  const deploy = jest.spyOn(StaticSite.prototype, 'deploy').mockImplementation(function (this: StaticSite, _dir, config) {
    if (this.node.id === 'WebSite') configs.push(config);
  });
  try {
    const stack = buildStack({ '@aws-cdk/core:stackResourceLimit': 0, ...context, deploySites: true });
    expect(configs).toHaveLength(1);
    return stack.resolve(configs[0]);
  } finally {
    deploy.mockRestore();
  }
}
const only = (t: Synthesized, type: string) => Object.values(t.template.findResources(type)).map((r) => r.Properties);
const webClient = (t: typeof withGoogle) => t.template.findResources('AWS::Cognito::UserPoolClient')[t.logicalId('AWS::Cognito::UserPoolClient', 'AuthWebClient')].Properties;
const adminClient = (t: typeof withGoogle) => t.template.findResources('AWS::Cognito::UserPoolClient')[t.logicalId('AWS::Cognito::UserPoolClient', 'AuthAdminClient')].Properties;
const pool = (t: Synthesized) => only(t, 'AWS::Cognito::UserPool')[0];
const poolId = (t: Synthesized) => t.logicalId('AWS::Cognito::UserPool', 'AuthUserPool');

describe('Google sign-in in the template', () => {
  it('has a Google identity provider with the client id from context, the secret read by name, and email and name mapped', () => {
    const [google] = only(withGoogle, 'AWS::Cognito::UserPoolIdentityProvider');
    expect(google).toMatchObject({
      ProviderName: 'Google',
      ProviderType: 'Google',
      AttributeMapping: { email: 'email', name: 'name' },
      ProviderDetails: { client_id: GOOGLE.googleClientId, authorize_scopes: 'openid email profile' },
    });
    // Resolved by CloudFormation at deploy time: the secret never appears in the template.
    expect(JSON.stringify(google.ProviderDetails.client_secret)).toContain(`{{resolve:secretsmanager:${GOOGLE.googleClientSecretName}:SecretString:::}}`);
  });

  it('gives the pool a domain, with a prefix derived from the stage', () => {
    expect(only(withGoogle, 'AWS::Cognito::UserPoolDomain')).toEqual([{ Domain: 'humanly-test', UserPoolId: { Ref: poolId(withGoogle) } }]);
    const custom = authAlone({ ...GOOGLE, authDomainPrefix: 'humanly-people' });
    expect(only(custom, 'AWS::Cognito::UserPoolDomain')[0].Domain).toBe('humanly-people');
    expect(() => authAlone({ ...GOOGLE, authDomainPrefix: 'my-cognito-login' })).toThrow(/authDomainPrefix .*without "aws", "amazon" or "cognito"/);
  });

  it("lets the site's client sign in with Google through the code grant, back to the client portal", () => {
    const client = webClient(withGoogle);
    expect(client.SupportedIdentityProviders).toEqual(['COGNITO', 'Google']);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect([...client.AllowedOAuthScopes].sort()).toEqual(['email', 'openid', 'profile']);
    expect(client.CallbackURLs).toEqual(['https://humanly.example/client-portal']);
    expect(client.LogoutURLs).toEqual(['https://humanly.example/']);
    expect(client.RefreshTokenValidity).toBeGreaterThan(0);
    expect(client.ExplicitAuthFlows).toContain('ALLOW_REFRESH_TOKEN_AUTH');
    // The client depends on the provider, so CloudFormation creates Google first.
    const clientResource = withGoogle.template.findResources('AWS::Cognito::UserPoolClient')[withGoogle.logicalId('AWS::Cognito::UserPoolClient', 'AuthWebClient')];
    expect(clientResource.DependsOn).toEqual(expect.arrayContaining([withGoogle.logicalId('AWS::Cognito::UserPoolIdentityProvider', 'AuthGoogle')]));
    // The console never signs in with Google.
    expect(adminClient(withGoogle).SupportedIdentityProviders).toEqual(['COGNITO']);
    expect(adminClient(withGoogle).AllowedOAuthFlows).toBeUndefined();
  });

  it("tells the site the domain's host name and that Google sign-in is on", () => {
    const config = webConfig(GOOGLE);
    expect(config.googleSignIn).toBe(true);
    expect(config.oauthDomain).toEqual({
      'Fn::Join': ['', [{ Ref: withGoogle.logicalId('AWS::Cognito::UserPoolDomain', 'AuthUserPoolDomain') }, '.auth.', { Ref: 'AWS::Region' }, '.amazoncognito.com']],
    });
  });

  it('without Google: no provider, no domain, no OAuth flows, nothing about Google in the site config', () => {
    expect(only(withoutGoogle, 'AWS::Cognito::UserPoolIdentityProvider')).toEqual([]);
    expect(only(withoutGoogle, 'AWS::Cognito::UserPoolDomain')).toEqual([]);
    expect(webClient(withoutGoogle).SupportedIdentityProviders).toEqual(['COGNITO']);
    expect(webClient(withoutGoogle).AllowedOAuthFlows).toBeUndefined();
    expect(webClient(withoutGoogle).CallbackURLs).toBeUndefined();
    const config = webConfig({ siteUrl: 'https://humanly.example' });
    expect(config).not.toHaveProperty('googleSignIn');
    expect(config).not.toHaveProperty('oauthDomain');
    expect(config.userPoolClientId).toEqual({ Ref: withoutGoogle.logicalId('AWS::Cognito::UserPoolClient', 'AuthWebClient') });
  });
});

describe('the user pool', () => {
  it('enforces the password policy the sign-up page shows', () => {
    expect(pool(withoutGoogle).Policies.PasswordPolicy).toEqual({
      MinimumLength: PASSWORD_POLICY.minLength,
      RequireLowercase: PASSWORD_POLICY.requireLowercase,
      RequireUppercase: PASSWORD_POLICY.requireUppercase,
      RequireNumbers: PASSWORD_POLICY.requireDigits,
      RequireSymbols: PASSWORD_POLICY.requireSymbols,
      TemporaryPasswordValidityDays: 3,
    });
  });

  it('emails codes and invitations from our sender address through SES, unless the stage says not yet', () => {
    // The stage's default sender address.
    const sender = withoutGoogle;
    expect(pool(sender).EmailConfiguration).toMatchObject({
      EmailSendingAccount: 'DEVELOPER',
      From: 'Humanly <hello@humanly.example>',
    });
    expect(pool(sender).EmailConfiguration.ConfigurationSet).toEqual({ Ref: sender.logicalId('AWS::SES::ConfigurationSet', 'EmailConfigurationSet') });
    expect(JSON.stringify(pool(sender).EmailConfiguration.SourceArn)).toContain('identity/humanly.example');
    expect(pool(authAlone({ authEmailFromSender: false })).EmailConfiguration).toBeUndefined();
  });

  it('runs our CustomMessage trigger, which knows the site and has no Cognito permissions', () => {
    const fnId = withoutGoogle.logicalId('AWS::Lambda::Function', 'AccountsCustomMessage');
    expect(pool(withoutGoogle).LambdaConfig.CustomMessage).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
    const fn = withoutGoogle.template.findResources('AWS::Lambda::Function')[fnId].Properties;
    expect(fn.Environment.Variables.SITE_URL).toBe('https://humanly.example');
    expect(nonLogActions(withoutGoogle.statementsOf('AccountsCustomMessage')).filter((a) => a.startsWith('cognito-idp:'))).toEqual([]);
  });

  it('lets PostConfirmation add people to groups of this pool only, through an inline policy', () => {
    const policies = Object.entries(withoutGoogle.template.findResources('AWS::IAM::Policy')).filter(([id]) => id.startsWith('AccountsPostConfirmationGroups'));
    expect(policies).toHaveLength(1);
    const statements = policies[0][1].Properties.PolicyDocument.Statement;
    expect(statements).toEqual([{ Action: 'cognito-idp:AdminAddUserToGroup', Effect: 'Allow', Resource: { 'Fn::GetAtt': [poolId(withoutGoogle), 'Arn'] } }]);
    const cognitoStatements = withoutGoogle.statementsOf('AccountsPostConfirmation').filter((s) => actionsOf(s).some((a) => a.startsWith('cognito-idp:')));
    expect(JSON.stringify(cognitoStatements)).not.toMatch(/"Resource":"\*"|cognito-idp:\*/);
  });
});

describe("the user pool's WAF web ACL (decision 040)", () => {
  const acls = (t: Synthesized) => t.template.findResources('AWS::WAFv2::WebACL');
  const poolAcl = (t: Synthesized) => {
    const [association] = only(t, 'AWS::WAFv2::WebACLAssociation');
    const aclId = association.WebACLArn['Fn::GetAtt'][0];
    return { association, acl: acls(t)[aclId].Properties };
  };
  const target = (operation: string) => ({
    ByteMatchStatement: {
      FieldToMatch: { SingleHeader: { Name: 'x-amz-target' } },
      PositionalConstraint: 'EXACTLY',
      SearchString: `AWSCognitoIdentityProviderService.${operation}`,
      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
    },
  });
  const rule = (acl: Record<string, any>, name: string) => acl.Rules.find((r: { Name: string }) => r.Name === name); // eslint-disable-line @typescript-eslint/no-explicit-any

  it('is a regional web ACL associated with the pool itself', () => {
    const { association, acl } = poolAcl(withoutGoogle);
    expect(association.ResourceArn).toEqual({ 'Fn::GetAtt': [poolId(withoutGoogle), 'Arn'] });
    expect(acl.Scope).toBe('REGIONAL');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
  });

  it('blocks, per IP over 5 minutes, the calls that email a code past 10 and the sign-ins and confirmations past 100', () => {
    const { acl } = poolAcl(withoutGoogle);
    expect(rule(acl, 'cognito-codes-per-ip')).toMatchObject({
      Action: { Block: {} },
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: 10,
          EvaluationWindowSec: 300,
          ScopeDownStatement: { OrStatement: { Statements: ['SignUp', 'ResendConfirmationCode', 'ForgotPassword'].map(target) } },
        },
      },
    });
    expect(rule(acl, 'cognito-sign-in-per-ip')).toMatchObject({
      Action: { Block: {} },
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: 100,
          EvaluationWindowSec: 300,
          ScopeDownStatement: { OrStatement: { Statements: ['InitiateAuth', 'RespondToAuthChallenge', 'ConfirmSignUp', 'ConfirmForgotPassword'].map(target) } },
        },
      },
    });
  });

  it('takes its limits from the stage, and refuses limits WAF would refuse', () => {
    const { acl } = poolAcl(authAlone({ cognitoCodeLimit: 25, cognitoSignInLimit: 250, threatProtection: 'enforced' }));
    expect(rule(acl, 'cognito-codes-per-ip').Statement.RateBasedStatement.Limit).toBe(25);
    expect(rule(acl, 'cognito-sign-in-per-ip').Statement.RateBasedStatement.Limit).toBe(250);
    expect(() => stageConfig(new App({ context: { cognitoCodeLimit: 5 } }))).toThrow(/cognitoCodeLimit must be a whole number of requests of at least 10, got 5/);
    expect(() => stageConfig(new App({ context: { cognitoSignInLimit: 'many' } }))).toThrow(/cognitoSignInLimit must be a whole number/);
  });
});

describe("Cognito's threat protection (decision 040)", () => {
  it('audits on the Plus plan by default outside prod', () => {
    expect(pool(withoutGoogle)).toMatchObject({ UserPoolTier: 'PLUS', UserPoolAddOns: { AdvancedSecurityMode: 'AUDIT' } });
    expect(only(withoutGoogle, 'AWS::Cognito::UserPoolRiskConfigurationAttachment')).toEqual([]);
    expect(stageConfig(new App({ context: { stage: 'prod', stripePrices: DEFAULT_STRIPE_PRICES } })).threatProtection).toBe('enforced');
  });

  it('enforced: blocks high-risk sign-ins and leaked passwords for every app client', () => {
    const enforced = authAlone({ cognitoCodeLimit: 25, cognitoSignInLimit: 250, threatProtection: 'enforced' });
    expect(pool(enforced)).toMatchObject({ UserPoolTier: 'PLUS', UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' } });
    expect(only(enforced, 'AWS::Cognito::UserPoolRiskConfigurationAttachment')).toEqual([
      expect.objectContaining({
        UserPoolId: { Ref: poolId(enforced) },
        ClientId: 'ALL',
        AccountTakeoverRiskConfiguration: { Actions: expect.objectContaining({ HighAction: { EventAction: 'BLOCK', Notify: false } }) },
        CompromisedCredentialsRiskConfiguration: { Actions: { EventAction: 'BLOCK' }, EventFilter: ['SIGN_IN', 'SIGN_UP', 'PASSWORD_CHANGE'] },
      }),
    ]);
  });

  it('off: the Essentials plan, without threat protection', () => {
    const off = authAlone({ threatProtection: 'off' });
    expect(pool(off).UserPoolTier).toBe('ESSENTIALS');
    expect(pool(off).UserPoolAddOns).toBeUndefined();
    expect(() => stageConfig(new App({ context: { threatProtection: 'maximum' } }))).toThrow(/threatProtection must be one of off, audit, enforced, got "maximum"/);
  });
});

describe('unconfirmed sign-ups and taken addresses (decision 040)', () => {
  const policiesOf = (t: typeof withGoogle, prefix: string) =>
    Object.entries(t.template.findResources('AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith(prefix))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);

  it('removes unconfirmed users every hour, allowed to list and remove users of this pool only', () => {
    const rules = Object.entries(withoutGoogle.template.findResources('AWS::Events::Rule')).filter(([id]) => id.startsWith('UnconfirmedUsersSchedule'));
    expect(rules).toHaveLength(1);
    const [, schedule] = rules[0];
    expect(schedule.Properties.ScheduleExpression).toBe('rate(1 hour)');
    expect(schedule.Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [withoutGoogle.logicalId('AWS::Lambda::Function', 'AccountsRemoveUnconfirmedUsers'), 'Arn'] });
    expect(policiesOf(withoutGoogle, 'AccountsRemoveUnconfirmedUsersPool')).toEqual([
      { Action: ['cognito-idp:ListUsers', 'cognito-idp:AdminDeleteUser'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [poolId(withoutGoogle), 'Arn'] } },
    ]);
  });

  it('serves POST /sign-up-conflicts publicly, allowed to read and remove users of this pool, to send email and to count its limits', () => {
    expect(withoutGoogle.routeKeys().find((r) => r.RouteKey === 'POST /sign-up-conflicts')?.AuthorizationType).toBe('NONE');
    expect(policiesOf(withoutGoogle, 'AccountsResolveSignUpConflictPool')).toEqual([
      { Action: ['cognito-idp:AdminGetUser', 'cognito-idp:AdminDeleteUser'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [poolId(withoutGoogle), 'Arn'] } },
    ]);
    const actions = nonLogActions(withoutGoogle.statementsOf('AccountsResolveSignUpConflict'));
    expect(actions).toEqual(expect.arrayContaining(['ses:SendEmail', 'dynamodb:UpdateItem']));
    expect(actions.filter((a) => a.startsWith('cognito-idp:'))).toEqual(['cognito-idp:AdminDeleteUser', 'cognito-idp:AdminGetUser']);
  });
});
