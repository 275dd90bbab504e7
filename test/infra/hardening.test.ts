import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { FAILURE_METRICS, METRICS_NAMESPACE_ENV } from '../../events/metrics';
import { ENTRY_METADATA } from '../../infra/lib/platform/app-function';
import { Alarms } from '../../infra/lib/platform/alarms';
import { EmailSending } from '../../infra/lib/platform/email';
import { synthTemplate } from '../../infra/local/template';
import { actionsOf, NAMED_STAGE, synthStack } from '../support/stack';

const { template, nested } = synthStack(NAMED_STAGE);
type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const resources = template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const refOf = (v: unknown): string | undefined => (v as { Ref?: string })?.Ref ?? (v as { 'Fn::GetAtt'?: string[] })?.['Fn::GetAtt']?.[0];

// The alarms are a nested stack; what they watch arrives as its parameters, each naming a resource here.
const alarmResources = nested('Alarms').toJSON().Resources as Record<string, Resource>;
const alarmsOfType = (type: string) => Object.entries(alarmResources).filter(([, r]) => r.Type === type);
const nestedParameters = ofType('AWS::CloudFormation::Stack').find(([id]) => id.startsWith('Alarms'))![1].Properties.Parameters as Record<string, unknown>;
/** The resource of this stack a nested parameter (or a nested resource's own id) stands for. */
const outerIdOf = (v: unknown): string | undefined => {
  const ref = refOf(v);
  return ref && ref in nestedParameters ? refOf(nestedParameters[ref]) : ref;
};
const alarms = alarmsOfType('AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
type MetricQuery = { Id: string; Expression?: string; MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: Array<{ Name: string; Value: unknown }> } } };
/** Each metric an alarm watches, directly or inside its metric math. */
const watched = (a: Record<string, any>) => // eslint-disable-line @typescript-eslint/no-explicit-any
  a.Metrics
    ? (a.Metrics as MetricQuery[]).filter((m) => m.MetricStat).map((m) => m.MetricStat!.Metric)
    : [{ Namespace: a.Namespace, MetricName: a.MetricName, Dimensions: a.Dimensions }];
const alarmsOn = (namespace: string, metric: string, dimension: string, id: string) =>
  alarms.filter((a) =>
    watched(a).some((m) => m.Namespace === namespace && m.MetricName === metric && m.Dimensions?.some((d: { Name: string; Value: unknown }) => d.Name === dimension && outerIdOf(d.Value) === id)),
  );

/** Functions that rules invoke asynchronously (a rule target's Arn is a function's). */
const ruleTargetFunctions = () =>
  ofType('AWS::Events::Rule')
    .flatMap(([, r]) => r.Properties.Targets as Array<{ Arn: unknown }>)
    .map((t) => refOf(t.Arn)!)
    .filter((id) => resources[id]?.Type === 'AWS::Lambda::Function');

describe('on-failure destinations', () => {
  it('gives every function a rule invokes an encrypted, TLS-only queue for errors thrown inside it', () => {
    const targets = ruleTargetFunctions();
    // Welcome email, contact notification, upload recorder at least.
    expect(targets.length).toBeGreaterThanOrEqual(3);
    const configs = ofType('AWS::Lambda::EventInvokeConfig').map(([, r]) => r.Properties);
    for (const fn of targets) {
      const config = configs.find((c) => refOf(c.FunctionName) === fn);
      expect({ fn, onFailure: !!config?.DestinationConfig?.OnFailure }).toEqual({ fn, onFailure: true });
      const queueId = refOf(config!.DestinationConfig.OnFailure.Destination)!;
      expect(resources[queueId].Type).toBe('AWS::SQS::Queue');
      expect(resources[queueId].Properties.SqsManagedSseEnabled).toBe(true);
      const policy = ofType('AWS::SQS::QueuePolicy').find(([, p]) => p.Properties.Queues.some((q: unknown) => refOf(q) === queueId));
      expect(JSON.stringify(policy?.[1].Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
  });
});

describe('alarms', () => {
  const topicId = alarmsOfType('AWS::SNS::Topic')[0][0];

  it('notify one topic, subscribed by the address from context', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const a of alarms) expect(a.AlarmActions.map(refOf)).toEqual([topicId]);
    const subscriptions = alarmsOfType('AWS::SNS::Subscription').map(([, r]) => r.Properties);
    expect(subscriptions).toEqual([expect.objectContaining({ Protocol: 'email', Endpoint: NAMED_STAGE.alarmEmail, TopicArn: { Ref: topicId } })]);
  });

  it('watch errors and throttles of every function of ours, in one alarm per function', () => {
    const fns = ofType('AWS::Lambda::Function').filter(([, r]) => r.Metadata?.[ENTRY_METADATA]);
    expect(fns.length).toBeGreaterThan(20);
    for (const [id] of fns) {
      const [errors, throttles] = [alarmsOn('AWS/Lambda', 'Errors', 'FunctionName', id), alarmsOn('AWS/Lambda', 'Throttles', 'FunctionName', id)];
      expect({ id, errors: errors.length, throttles: throttles.length }).toEqual({ id, errors: 1, throttles: 1 });
      expect(errors[0]).toBe(throttles[0]);
      // Missing points (no throttles published) count as zero, so errors alone still fire it.
      expect(errors[0].Metrics.find((m: MetricQuery) => m.Expression)?.Expression).toMatch(/FILL\(errors, 0\) \+ FILL\(throttles, 0\)/);
    }
  });

  it('leave the main stack room under CloudFormation\'s 500 resources (decision 025)', () => {
    // Synthesized without the sites' deployments, which add about a dozen more.
    expect(Object.keys(resources).length).toBeLessThan(485);
  });

  it('watch the depth of every queue (dead letters and on-failure destinations)', () => {
    const queues = ofType('AWS::SQS::Queue');
    expect(queues.length).toBeGreaterThanOrEqual(7);
    for (const [id] of queues) {
      expect({ id, depth: alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', id).length }).toEqual({ id, depth: 1 });
    }
  });

  it('watch failed, timed-out and aborted executions of every state machine', () => {
    const machines = ofType('AWS::StepFunctions::StateMachine');
    expect(machines.length).toBeGreaterThan(0);
    for (const [id] of machines) {
      for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted']) {
        expect({ id, metric, n: alarmsOn('AWS/States', metric, 'StateMachineArn', id).length }).toEqual({ id, metric, n: 1 });
      }
    }
  });

  it('watch bounces and complaints, which the configuration set publishes to CloudWatch', () => {
    const destination = ofType('AWS::SES::ConfigurationSetEventDestination')[0][1].Properties;
    expect(destination.EventDestination.MatchingEventTypes.sort()).toEqual(['bounce', 'complaint']);
    expect(destination.EventDestination.CloudWatchDestination.DimensionConfigurations).toEqual([
      expect.objectContaining({ DimensionName: 'ses:configuration-set', DimensionValueSource: 'messageTag' }),
    ]);
    expect(alarms.filter((a) => a.Namespace === 'AWS/SES').map((a) => a.MetricName).sort()).toEqual(['Bounce', 'Complaint']);
    const configSet = ofType('AWS::SES::ConfigurationSet')[0][0];
    for (const a of alarms.filter((x) => x.Namespace === 'AWS/SES')) {
      expect(a.Dimensions.map((d: { Value: unknown }) => outerIdOf(d.Value))).toEqual([configSet]);
    }
  });

  it("watch the API's 5xx answers on its stage: a few in five minutes", () => {
    const [apiId] = ofType('AWS::ApiGatewayV2::Api')[0];
    const onApi = alarms.filter((a) => a.Namespace === 'AWS/ApiGateway');
    expect(onApi).toEqual([
      expect.objectContaining({ MetricName: '5xx', Statistic: 'Sum', Period: 300, Threshold: 5, EvaluationPeriods: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' }),
    ]);
    const dimensions = Object.fromEntries(onApi[0].Dimensions.map((d: { Name: string; Value: unknown }) => [d.Name, d.Value]));
    expect(outerIdOf(dimensions.ApiId)).toBe(apiId);
    expect(dimensions.Stage).toBe('$default');
  });

  it('watch the failures the functions count themselves, in the stack\'s own namespace, each at its first occurrence', () => {
    // The test app's stack is Marketplace-<stage>, its stage `test`.
    const namespace = 'Humanly/Marketplace-test';
    // Every function of ours writes its metrics there (and no other stage's alarms see them).
    const fns = ofType('AWS::Lambda::Function').filter(([, r]) => r.Metadata?.[ENTRY_METADATA]);
    for (const [id, fn] of fns) expect({ id, ns: fn.Properties.Environment.Variables[METRICS_NAMESPACE_ENV] }).toEqual({ id, ns: namespace });

    const own = alarms.filter((a) => a.Namespace === namespace);
    const byMetric = Object.fromEntries(own.map((a) => [a.MetricName, a]));
    expect(Object.keys(byMetric).sort()).toEqual(Object.values(FAILURE_METRICS).sort());
    expect(own).toHaveLength(Object.values(FAILURE_METRICS).length);
    for (const a of own) {
      // The totals, without dimensions: what log.metric always writes.
      expect({ metric: a.MetricName, dimensions: a.Dimensions ?? [] }).toEqual({ metric: a.MetricName, dimensions: [] });
      expect(a).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
    }
    for (const name of [FAILURE_METRICS.unexpectedError, FAILURE_METRICS.webhookApplyFailed, FAILURE_METRICS.workflowStartFailed]) {
      expect(byMetric[name]).toMatchObject({ Statistic: 'Sum', Period: 300 });
    }
    // The outbox is sent hourly; its overdue count is the largest an hour.
    expect(byMetric[FAILURE_METRICS.emailsOverdue]).toMatchObject({ Statistic: 'Maximum', Period: 3600 });
    // The reports' overdue check runs every 15 minutes; its count of late cases is the largest in that time.
    expect(byMetric.ReportsOverdue).toMatchObject({ Statistic: 'Maximum', Period: 900 });
  });

  it('are declared here alone: no stack counts log lines with a metric filter of its own', () => {
    const filters = (t: { toJSON(): unknown }) => Object.values((t.toJSON() as { Resources: Record<string, Resource> }).Resources).filter((r) => r.Type === 'AWS::Logs::MetricFilter');
    expect(filters(template)).toEqual([]);
    expect(filters(nested('Reports'))).toEqual([]);
    // Every alarm of the app is in the Alarms stack.
    expect(ofType('AWS::CloudWatch::Alarm')).toEqual([]);
  });

  it('join by themselves: a function or queue added before the alarms gets its own', () => {
    const count = (extra: number) => {
      const stack = new Stack(new App());
      const email = new EmailSending(stack, 'Email', { senderEmail: 'hello@humanly.example', stage: 't', siteUrl: 'https://humanly.example' });
      for (let i = 0; i < extra; i++) {
        new LambdaFunction(stack, `Fn${i}`, { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('exports.handler=()=>{}') });
        new Queue(stack, `Q${i}`);
      }
      const nested = new Alarms(stack, 'Alarms', { email });
      return Object.keys(Template.fromStack(nested).findResources('AWS::CloudWatch::Alarm')).length;
    };
    // Per function: errors or throttles; per queue: depth.
    expect(count(2) - count(1)).toBe(2);
  });
});

describe('the email outbox (decision 041)', () => {
  // The app with its nested stacks flattened in, as the twin reads it: the likeness functions are
  // the Likeness stack's, the outbox the main stack's.
  const flat = synthTemplate({ stage: 'test' }) as { Resources: Record<string, Resource> };
  const all = flat.Resources;
  const [outboxId, outbox] = Object.entries(all).find(([id, r]) => r.Type === 'AWS::DynamoDB::Table' && id.startsWith('EmailOutbox'))!;
  const onOutbox = (resource: unknown) => JSON.stringify(resource).includes(outboxId);
  const bound = Object.entries(all).filter(([, r]) => r.Type === 'AWS::Lambda::Function' && refOf(r.Properties.Environment?.Variables?.OUTBOX_TABLE) === outboxId);
  const grantsOf = (fn: Resource) => {
    const roleId = refOf(fn.Properties.Role)!;
    const statements = Object.values(all)
      .filter((p) => p.Type === 'AWS::IAM::Policy' && (p.Properties.Roles as unknown[]).some((r) => refOf(r) === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    return {
      outbox: statements.filter((st) => onOutbox(st.Resource)).flatMap(actionsOf).sort(),
      sends: statements.flatMap(actionsOf).includes('ses:SendEmail'),
    };
  };

  it('is a table of its own, by id, whose sent items expire', () => {
    expect(outbox.Properties).toMatchObject({ KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } });
  });

  it('is written and sent from by the likeness functions whose emails follow a change; only the schedule scans it for what waits', () => {
    const entries = Object.fromEntries(bound.map(([, fn]) => [fn.Metadata?.[ENTRY_METADATA] as string, grantsOf(fn)]));
    const writes = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
    expect(entries).toEqual({
      'functions/likeness/routes/request-removal/handler.ts': { outbox: writes, sends: true },
      'functions/likeness/routes/record-exclusive-contract/handler.ts': { outbox: writes, sends: true },
      'functions/likeness/routes/end-exclusive-contract/handler.ts': { outbox: writes, sends: true },
      'functions/likeness/triggers/likeness-schedule/handler.ts': { outbox: [...writes, 'dynamodb:Scan'].sort(), sends: true },
    });
  });
});

describe('edge: WAF and the API behind CloudFront', () => {
  const [aclId, acl] = ofType('AWS::WAFv2::WebACL')[0];
  const distributions = ofType('AWS::CloudFront::Distribution').map(([, r]) => r.Properties.DistributionConfig);
  const apiDistribution = distributions.find((d) => d.Comment.startsWith('Marketplace API'))!;

  it('puts one CloudFront web ACL in front of every distribution: the sites and the API', () => {
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    expect(distributions).toHaveLength(3);
    for (const d of distributions) expect(d.WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });

  it('blocks an IP over its rate on the public POST routes (not /admin/), and applies AWS managed rules', () => {
    const rules = acl.Properties.Rules as Array<{ Name: string; Action?: object; Statement: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const post = rules.find((r) => r.Name === 'public-post-per-ip')!;
    expect(post.Action).toEqual({ Block: {} });
    expect(post.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', Limit: 100 });
    const scope = JSON.stringify(post.Statement.RateBasedStatement.ScopeDownStatement);
    expect(scope).toContain('"SearchString":"POST"');
    expect(scope).toMatch(/NotStatement.*"SearchString":"\/admin\/"/);
    expect(rules.find((r) => r.Name === 'all-requests-per-ip')!.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', Limit: 2000 });
    const managed = rules.map((r) => r.Statement.ManagedRuleGroupStatement?.Name).filter(Boolean);
    expect(managed).toEqual(['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']);
  });

  it('takes the WAF rate limits from context', () => {
    const small = synthStack({ wafPostLimit: 20, wafRequestLimit: 500 }).template.toJSON().Resources as Record<string, Resource>;
    const rules = Object.values(small).find((r) => r.Type === 'AWS::WAFv2::WebACL')!.Properties.Rules;
    expect(rules.map((r: { Statement: { RateBasedStatement?: { Limit: number } } }) => r.Statement.RateBasedStatement?.Limit).filter(Boolean)).toEqual([20, 500]);
    expect(() => synthStack({ wafPostLimit: 5 })).toThrow(/wafPostLimit must be a whole number of requests of at least 10, got 5/);
  });

  it('sends API traffic to the HTTP API, uncached, with the origin-verify secret every route function holds', () => {
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0][0];
    const [origin] = apiDistribution.Origins;
    expect(JSON.stringify(origin.DomainName)).toContain(`"Ref":"${apiId}"`);
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(apiDistribution.DefaultCacheBehavior.AllowedMethods).toContain('POST');
    expect(apiDistribution.DefaultCacheBehavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
    const header = origin.OriginCustomHeaders.find((h: { HeaderName: string }) => h.HeaderName === 'x-origin-verify');
    const secretId = ofType('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('HttpOriginVerify'))![0];
    expect(JSON.stringify(header.HeaderValue)).toContain(`"Ref":"${secretId}"`);
    // Every function behind a route may check it.
    const integrations = ofType('AWS::ApiGatewayV2::Integration').map(([, r]) => refOf(r.Properties.IntegrationUri)!);
    expect(integrations.length).toBeGreaterThan(10);
    for (const fn of new Set(integrations)) {
      expect({ fn, env: resources[fn].Properties.Environment.Variables.ORIGIN_VERIFY }).toEqual({ fn, env: header.HeaderValue });
    }
  });

  it('refuses to be deployed outside us-east-1, where CloudFront web ACLs live', () => {
    const rules = (template.toJSON().Rules ?? {}) as Record<string, { Assertions: Array<{ Assert: unknown; AssertDescription: string }> }>;
    const assertion = Object.values(rules).flatMap((r) => r.Assertions)[0];
    expect(assertion.Assert).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
    const region = process.env.CDK_DEFAULT_REGION;
    process.env.CDK_DEFAULT_REGION = 'eu-west-1';
    try {
      expect(() => synthStack()).toThrow(/must be deployed to us-east-1: CloudFront's WAF web ACL can only be created there \(got region eu-west-1\)/);
    } finally {
      if (region === undefined) delete process.env.CDK_DEFAULT_REGION;
      else process.env.CDK_DEFAULT_REGION = region;
    }
  });
});

describe('tracing and concurrency', () => {
  it('traces every function of ours and the state machines with X-Ray, through one shared write policy', () => {
    const fns = ofType('AWS::Lambda::Function').filter(([, r]) => r.Metadata?.[ENTRY_METADATA]);
    const [policyId, policy] = ofType('AWS::IAM::ManagedPolicy').find(([id]) => id.startsWith('XRayTraceWrite'))!;
    expect(policy.Properties.PolicyDocument.Statement).toEqual([expect.objectContaining({ Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] })]);
    for (const [id, fn] of fns) {
      expect({ id, tracing: fn.Properties.TracingConfig }).toEqual({ id, tracing: { Mode: 'Active' } });
      const role = resources[refOf(fn.Properties.Role)!];
      expect({ id, policies: role.Properties.ManagedPolicyArns }).toEqual({ id, policies: [{ Ref: policyId }] });
    }
    for (const [, machine] of ofType('AWS::StepFunctions::StateMachine')) expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('reserves a few instances for the photo validator so it cannot take the API\'s concurrency', () => {
    const validator = ofType('AWS::Lambda::Function').find(([, r]) => r.Metadata?.[ENTRY_METADATA] === 'functions/founding/steps/validate-photos/handler.ts')![1];
    expect(validator.Properties.ReservedConcurrentExecutions).toBe(5);
    const others = ofType('AWS::Lambda::Function').filter(([, r]) => r.Properties.ReservedConcurrentExecutions !== undefined);
    expect(others).toHaveLength(1);
  });
});

describe('erasure', () => {
  const { statementsOf, logicalId, routeKeys } = synthStack();

  it('is an admin route', () => {
    expect(routeKeys().find((r) => r.RouteKey === 'POST /admin/erasures')).toMatchObject({ AuthorizationType: 'JWT' });
  });

  it('may only scan and delete where personal data lives, delete photos under the two prefixes and delivered images, delete accounts, and write its records', () => {
    const statements = statementsOf('ConsoleErasePerson');
    const on = (resource: unknown) => statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify(resource)).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).sort();
    const table = (prefix: string) => ({ 'Fn::GetAtt': [logicalId('AWS::DynamoDB::Table', prefix), 'Arn'] });
    expect(on(table('WaitlistTable'))).toEqual(['dynamodb:DeleteItem', 'dynamodb:Scan']);
    expect(on(table('ContactMessagesTable'))).toEqual(['dynamodb:DeleteItem', 'dynamodb:Scan']);
    expect(on(table('FoundingApplicationsTable'))).toEqual(['dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:Scan']);
    expect(on(table('IdempotencyTable'))).toEqual(['dynamodb:DeleteItem', 'dynamodb:Scan']);
    expect(on(table('ConsoleErasureRecordsTable'))).toEqual(['dynamodb:PutItem', 'dynamodb:Scan']);
    const bucket = logicalId('AWS::S3::Bucket', 'FoundingPhotos');
    const objects = (p: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, `/${p}`]] });
    expect(on(objects('applications/*'))).toEqual(['s3:DeleteObject']);
    expect(on(objects('pending/*'))).toEqual(['s3:DeleteObject']);
    expect(on({ 'Fn::GetAtt': [logicalId('AWS::Cognito::UserPool', 'AuthUserPool'), 'Arn'] })).toEqual(['cognito-idp:AdminDeleteUser', 'cognito-idp:ListUsers']);
    const all = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    // Besides, two secrets: the Replicate token (a talent's model versions are deleted there;
    // test/infra/likeness-removal.test.ts checks the token's and the training files' resources) and
    // the Stripe key (a client's subscriptions and customer; test/infra/payments.test.ts).
    expect(all.filter((a) => !/^(dynamodb|s3|cognito-idp|logs):/.test(a)).sort()).toEqual([
      'secretsmanager:DescribeSecret',
      'secretsmanager:DescribeSecret',
      'secretsmanager:GetSecretValue',
      'secretsmanager:GetSecretValue',
    ]);
    // And a client's delivered images (decision 035): read once to keep each pixel hash, then
    // deleted (test/infra/generation.test.ts checks their resources); a talent's training sets and
    // samples deleted (listed under samples/).
    expect(all.filter((a) => a.startsWith('s3:')).sort()).toEqual([
      's3:DeleteObject',
      's3:DeleteObject',
      's3:DeleteObject',
      's3:DeleteObject',
      's3:DeleteObject',
      's3:GetObject',
      's3:ListBucket',
      's3:ListBucket',
      's3:ListBucket',
    ]);
  });
});
