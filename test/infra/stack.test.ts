import * as fs from 'node:fs';
import * as path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/lib/app';
import { missingFromTwin, templateInventory } from '../../infra/local/parity';
import type { CfnTemplate } from '../../infra/local/template';
import { testApp } from '../support/stack';

// The run's one synthesis of the test stage, with cdk-nag (test/support/synth-global-setup.ts).
const app = testApp({}, { nag: true });
const synthError = app.nag?.error;
const template = Template.fromJSON(app.template);
const json = template.toJSON() as CfnTemplate;

const logicalId = (type: string, prefix: string) => {
  const id = Object.keys(template.findResources(type)).find((k) => k.startsWith(prefix));
  if (!id) throw new Error(`no ${type} ${prefix}`);
  return id;
};

/** Every IAM statement attached to a function's role, flattened. */
function statementsOf(functionPrefix: string): Array<{ Action: string | string[]; Resource: unknown }> {
  const fn = template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', functionPrefix)];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const actions = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

describe('cdk-nag AwsSolutions', () => {
  it('synthesizes with no unacknowledged error or warning', () => {
    const report = app.nag?.report;
    const violations = report
      ? report.pluginReports.flatMap((r: { violations: Array<{ ruleName: string; violatingConstructs: Array<{ constructPath: string }> }> }) =>
          r.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} ${c.constructPath}`)),
        )
      : [];
    expect(violations).toEqual([]);
    expect(synthError).toBeUndefined();
  });

  it('gives a reason for every acknowledged finding', () => {
    const source = fs.readFileSync(path.join(__dirname, '../../infra/lib/platform/nag.ts'), 'utf8');
    const acks = [...source.matchAll(/ack\(c, '([^']+)', '([^']*)'\)/g)];
    expect(acks.length).toBeGreaterThan(5);
    for (const [, , reason] of acks) expect(reason.length).toBeGreaterThan(20);
  });
});

describe('least privilege', () => {
  it('lets the signup function read and write only its table (its idempotency records and rate counters) and send only from our identity', () => {
    const statements = statementsOf('WaitlistEarlySignup');
    const on = (id: string) => statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).flatMap(actions).sort();
    expect(on(logicalId('AWS::DynamoDB::Table', 'WaitlistTable'))).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    expect(on(logicalId('AWS::DynamoDB::Table', 'IdempotencyTable'))).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(on(logicalId('AWS::DynamoDB::Table', 'RateLimitsTable'))).toEqual(['dynamodb:UpdateItem']);
    // No bus: a signup takes no place, so nothing is announced.
    const all = statements.flatMap(actions).sort();
    expect(all.filter((a) => !a.startsWith('logs:') && !a.startsWith('dynamodb:'))).toEqual(['ses:SendEmail']);
    expect(JSON.stringify(statements)).not.toMatch(/"Resource":"\*"/);
  });

  it('lets the confirming function write only its table (its idempotency records and rate counters) and put events only on our bus', () => {
    const statements = statementsOf('WaitlistConfirmSignup');
    const busId = logicalId('AWS::Events::EventBus', 'EventsBus');
    const on = (id: string) => statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).flatMap(actions).sort();
    expect(on(logicalId('AWS::DynamoDB::Table', 'WaitlistTable'))).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(on(logicalId('AWS::DynamoDB::Table', 'RateLimitsTable'))).toEqual(['dynamodb:UpdateItem']);
    expect(on(busId)).toEqual(['events:PutEvents']);
    const all = statements.flatMap(actions);
    expect(all.filter((a) => !a.startsWith('logs:') && !a.startsWith('dynamodb:') && !a.startsWith('events:'))).toEqual([]);
    expect(JSON.stringify(statements)).not.toMatch(/"Resource":"\*"/);
  });

  it('lets the welcome consumer update its table, keep its idempotency records, and send only from our identity', () => {
    const statements = statementsOf('WaitlistWelcome');
    const tableId = logicalId('AWS::DynamoDB::Table', 'WaitlistTable');
    const idempotencyId = logicalId('AWS::DynamoDB::Table', 'IdempotencyTable');
    const on = (id: string) => statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).flatMap(actions).sort();
    expect(on(tableId)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(on(idempotencyId)).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    // Its on-failure destination (infra/lib/platform/event-rules.ts) receives events it failed on.
    expect(on(logicalId('AWS::SQS::Queue', 'WaitlistWelcomeDeadLettersFailed'))).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    const all = statements.flatMap(actions).sort();
    expect(all.filter((a) => !a.startsWith('logs:') && !a.startsWith('dynamodb:') && !a.startsWith('sqs:'))).toEqual(['ses:SendEmail']);
  });

  it('keeps idempotency records in a table of their own that expires them by TTL', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[logicalId('AWS::DynamoDB::Table', 'IdempotencyTable')];
    expect(table.Properties.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiration', Enabled: true });
  });

  it('gives the dashboard function read access only: waitlist and founding counters and indexes, contact messages, the generations list index, the reports', () => {
    const all = statementsOf('ConsoleAdminStats').flatMap(actions);
    expect(all.filter((a) => !a.startsWith('logs:')).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:Scan']);
  });

  it.each([
    ['WaitlistAdminListWaitlist', ['dynamodb:Query']],
    ['WaitlistAdminExportWaitlist', ['dynamodb:Query']],
    ['CatalogAdminListTalent', ['dynamodb:Scan']],
    ['CatalogAdminGetTalent', ['dynamodb:GetItem']],
    ['CatalogAdminUpdateTalent', ['dynamodb:UpdateItem']],
    ['ContactAdminListMessages', ['dynamodb:Scan']],
    ['ContactAdminGetMessage', ['dynamodb:GetItem']],
    ['ContactAdminUpdateMessage', ['dynamodb:UpdateItem']],
  ])('gives the console function %s exactly %j', (fn, expected) => {
    expect(statementsOf(fn).flatMap(actions).filter((a) => !a.startsWith('logs:'))).toEqual(expected);
  });
});

describe('accounts', () => {
  it('has the client, talent and admin groups', () => {
    const groups = Object.values(template.findResources('AWS::Cognito::UserPoolGroup')).map((g) => g.Properties.GroupName);
    expect(groups.sort()).toEqual(['admin', 'client', 'talent']);
  });

  it('guards self sign-up with the pre-sign-up trigger and an immutable role attribute', () => {
    const pool = Object.values(template.findResources('AWS::Cognito::UserPool'))[0];
    expect(pool.Properties.LambdaConfig.PreSignUp).toBeDefined();
    expect(pool.Properties.LambdaConfig.PostConfirmation).toBeDefined();
    const role = pool.Properties.Schema.find((a: { Name: string }) => a.Name === 'role');
    expect(role.Mutable).toBe(false);
  });

  it('runs the pre-token-generation trigger that marks two-factor sign-ins, allowed to read the user', () => {
    const pool = Object.values(template.findResources('AWS::Cognito::UserPool'))[0];
    const trigger = pool.Properties.LambdaConfig.PreTokenGeneration;
    expect(trigger).toEqual({ 'Fn::GetAtt': [logicalId('AWS::Lambda::Function', 'AccountsPreTokenGeneration'), 'Arn'] });
    expect(pool.Properties.MfaConfiguration).toBe('OPTIONAL');
    expect(pool.Properties.EnabledMfas).toContain('SOFTWARE_TOKEN_MFA');
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: [{ Action: 'cognito-idp:AdminGetUser', Effect: 'Allow', Resource: { 'Fn::GetAtt': [logicalId('AWS::Cognito::UserPool', 'AuthUserPool'), 'Arn'] } }] },
      Roles: [{ Ref: template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', 'AccountsPreTokenGeneration')].Properties.Role['Fn::GetAtt'][0] }],
    });
  });

  it('accepts only console tokens on admin routes', () => {
    const adminRoute = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === 'GET /admin/stats')!;
    expect(adminRoute.Properties.AuthorizationType).toBe('JWT');
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: { Audience: [{ Ref: logicalId('AWS::Cognito::UserPoolClient', 'AuthAdminClient') }] },
    });
  });
});

describe('waitlist', () => {
  it('serves the early-signup function at both paths, and the confirmation route', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys).toEqual(expect.arrayContaining(['POST /early-signup', 'POST /functions/v1/early-signup', 'POST /confirm-waitlist']));
  });

  it('expires unconfirmed signups and confirmation links by TTL', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[logicalId('AWS::DynamoDB::Table', 'WaitlistTable')];
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });

  it('takes its capacity from context', () => {
    const { stack: small } = buildApp({ context: { 'aws:cdk:bundling-stacks': [], deploySites: false, waitlistCapacity: 7 } }, { nag: false });
    const fns = Object.values(Template.fromStack(small).findResources('AWS::Lambda::Function'));
    const capacities = fns.map((f) => f.Properties.Environment?.Variables?.WAITLIST_CAPACITY).filter(Boolean);
    expect(capacities).toEqual(['7', '7', '7']);
  });

  it('routes Waitlist.SignedUp to the welcome consumer with retries and a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { 'detail-type': ['Waitlist.SignedUp'] },
      Targets: [{ RetryPolicy: { MaximumRetryAttempts: 8 }, DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'WaitlistWelcomeDeadLetters'), 'Arn'] } } }],
    });
  });
});

describe('sites', () => {
  it('keeps both site buckets private behind CloudFront with security headers', () => {
    const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    // The two sites, and the API's own (test/infra/hardening.test.ts).
    expect(distributions.map((d) => d.Properties.DistributionConfig.Comment).sort()).toEqual(['AdminSite', 'Marketplace API (WAF, origin-verify header)', 'WebSite']);
    const policies = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    for (const p of policies) {
      const sec = p.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
      expect(sec.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
      expect(sec.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31536000);
      expect(sec.ContentTypeOptions.Override).toBe(true);
    }
    for (const id of ['WebSiteBucket', 'AdminSiteBucket']) {
      const bucket = template.findResources('AWS::S3::Bucket')[logicalId('AWS::S3::Bucket', id)];
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
  });
});

describe('stage values come from context, not code', () => {
  it('uses the sender address and Google client from context', () => {
    const { stack: s } = buildApp(
      { context: { 'aws:cdk:bundling-stacks': [], deploySites: false, senderEmail: 'team@studio.test', googleClientId: 'gid', googleClientSecretName: 'google/secret' } },
      { nag: false },
    );
    const t = Template.fromStack(s);
    t.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'studio.test' });
    t.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', { ProviderName: 'Google', ProviderDetails: { client_id: 'gid' } });
    expect(JSON.stringify(t.toJSON())).toContain('google/secret');
  });
});

describe('twin parity (inventory)', () => {
  it('lists what the template asks the twin to serve', () => {
    const inv = templateInventory(json);
    const routeKeyOf = (id: string) => json.Resources[id].Properties!.RouteKey;
    expect(inv.routes.map(routeKeyOf)).toEqual(
      expect.arrayContaining(['POST /early-signup', 'POST /contact', 'GET /talent', 'POST /founding-uploads', 'POST /founding-talent-signup', 'POST /admin/applications/{id}/decision']),
    );
    expect(inv.tables.map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual(
      expect.arrayContaining(['WaitlistTable', 'ContactMessagesTable', 'CatalogTalentTable', 'FoundingApplicationsTable']),
    );
    expect(inv.buckets.some((id) => id.startsWith('FoundingPhotos'))).toBe(true);
    expect(inv.rules.filter((id) => id.startsWith('Founding')).length).toBe(2);
    expect(inv.stateMachines).toEqual([expect.stringMatching(/^FoundingWorkflow/)]);
  });

  it('reports a route, table, bucket, rule or state machine that the twin does not serve', () => {
    const served = templateInventory(json);
    const grown: CfnTemplate = {
      Resources: {
        ...json.Resources,
        NewRoute: { Type: 'AWS::ApiGatewayV2::Route', Properties: { RouteKey: 'GET /new' } },
        NewTable: { Type: 'AWS::DynamoDB::Table', Properties: {} },
        NewBucket: { Type: 'AWS::S3::Bucket', Properties: {} },
        NewRule: { Type: 'AWS::Events::Rule', Properties: {} },
        NewMachine: { Type: 'AWS::StepFunctions::StateMachine', Properties: {} },
      },
    };
    expect(missingFromTwin(grown, served)).toEqual([
      'routes: NewRoute',
      'tables: NewTable',
      'buckets: NewBucket',
      'rules: NewRule',
      'stateMachines: NewMachine',
    ]);
    expect(missingFromTwin(json, served)).toEqual([]);
  });
});
