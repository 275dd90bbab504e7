// The Generation nested stack's workflow section (docs/generation.md): the state machine and its
// task functions, the webhook route, the monthly allowance's schedule, who reads the Replicate
// token, and that each function is granted exactly what it calls; and the Royalties nested
// stack's monthly close and console routes.
import { actionsOf, flattenedStack, synthStack } from '../support/stack';

const { nested } = synthStack();
// The app's template with its nested stacks flattened in, as the twin reads it (decision 032):
// the workflow is Generation's, the monthly close Royalties', the monthly allowance the main
// stack's, and a reference across stacks reads as the resource it names.
const { template, logicalId: idOf, statementsOf } = flattenedStack();
const resources = (type: string) => template.findResources(type);
const fnId = (prefix: string) => idOf('AWS::Lambda::Function', prefix);
/** A function's grants other than its own logs, as `action on resource` strings with readable resources. */
const grantsOf = (prefix: string) =>
  statementsOf(prefix)
    .flatMap((s) => actionsOf(s).map((a) => [a, s.Resource] as const))
    .filter(([a]) => !a.startsWith('logs:'))
    .map(([a, r]) => `${a} ${label(r)}`)
    .sort();
const table = idOf('AWS::DynamoDB::Table', 'GenerationsTable');
const bucket = idOf('AWS::S3::Bucket', 'GeneratedImages');
const secret = idOf('AWS::SecretsManager::Secret', 'ReplicateToken');
const machine = idOf('AWS::StepFunctions::StateMachine', 'GenerationWorkflow');
const signingKey = idOf('AWS::KMS::Key', 'ContentCredentialsKey');
const chain = idOf('AWS::SecretsManager::Secret', 'ContentCredentialsChain');
function label(resource: unknown): string {
  const text = JSON.stringify(resource);
  if (text === JSON.stringify({ 'Fn::GetAtt': [table, 'Arn'] })) return 'generations';
  if (text === JSON.stringify({ Ref: secret })) return 'token';
  if (text === JSON.stringify({ Ref: machine })) return 'machine';
  if (text === JSON.stringify({ 'Fn::GetAtt': [signingKey, 'Arn'] })) return 'signing-key';
  if (text === JSON.stringify({ Ref: chain })) return 'certificate-chain';
  if (text.includes(bucket)) return `images${text.includes('/generations/*') ? '/generations/*' : ''}`;
  if (text.includes('AccountsTable')) return `accounts${text.includes('/index/') ? '/index/byCreated' : ''}`;
  if (text.includes('CatalogTalentTable')) return 'talent';
  if (text.includes('FoundingApplicationsTable')) return 'applications';
  if (text.includes('RateLimitsTable')) return 'rate-limits';
  if (text.includes('IdempotencyTable')) return 'idempotency';
  if (text.includes(':stateMachine:') && text.includes('-Generation')) return 'machine-by-name';
  return text;
}

describe('generation workflow (infra)', () => {
  it('defines the state machine with its eight task functions, tracing and logs without execution data', () => {
    const props = resources('AWS::StepFunctions::StateMachine')[machine].Properties;
    expect(props.StateMachineName).toMatch(/-Generation$/);
    expect(props.TracingConfiguration).toEqual({ Enabled: true });
    expect(props.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
    const definition = JSON.stringify(props.DefinitionString);
    for (const step of ['ReserveCredits', 'AwaitAdmission', 'CheckPolicy', 'StartPrediction', 'AwaitPrediction', 'PollPrediction', 'DeliverImages', 'RecordFailure']) {
      expect(definition).toContain(fnId(step));
    }
    expect(definition).not.toContain(fnId('ReplicateWebhook'));
    expect(definition).not.toContain(fnId('AccountsMonthlyAllowance'));
  });

  it('runs the monthly allowance at 00:05 UTC on the 1st of every month, retried', () => {
    const rule = resources('AWS::Events::Rule')[idOf('AWS::Events::Rule', 'MonthlyAllowanceSchedule')];
    expect(rule.Properties.ScheduleExpression).toBe('cron(5 0 1 * ? *)');
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId('AccountsMonthlyAllowance'), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21_600 } }),
    ]);
  });

  it('serves the webhook as a signed public route of its own function, pointing predictions at the API endpoint', () => {
    const route = Object.values(resources('AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === 'POST /webhooks/replicate')!;
    expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    // Its own access class: the signature is the caller's proof, so nobody else gets a 2xx.
    expect(route.Metadata['app:access']).toBe('signed');
    const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
    expect(JSON.stringify(resources('AWS::ApiGatewayV2::Integration')[integrationId].Properties.IntegrationUri)).toContain(fnId('ReplicateWebhook'));
    const env = resources('AWS::Lambda::Function')[fnId('StartPrediction')].Properties.Environment.Variables;
    expect(JSON.stringify(env.WEBHOOK_URL)).toContain('/webhooks/replicate');
    expect(JSON.stringify(env.WEBHOOK_URL)).toMatch(/ApiEndpoint|HttpApi/);
  });

  it('lets only the functions that call Replicate read its token', () => {
    const readers = Object.keys(resources('AWS::Lambda::Function')).filter((id) =>
      statementsOf(id).some((s) => actionsOf(s).includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource) === JSON.stringify({ Ref: secret })),
    );
    // The generation's functions, the likeness training's (docs/training.md), which call Replicate
    // too, and the removal's and the console's erasure, which delete a talent's model versions.
    const named = readers.map((id) => id.replace(/^TrainingNestedStack\w*?NestedStackResource[0-9A-F]{8}/, 'Training/').replace(/[0-9A-F]{8}$/, '')).sort();
    expect(named).toEqual(
      [
        'CheckPolicy',
        'ConsoleErasePerson',
        'CreateModel',
        'DeliverImages',
        'GenerateSamples',
        'PollPrediction',
        'PollTraining',
        'RecordFailure',
        'RecordVersion',
        'RemoveLikenessModel',
        'ReplicateTrainingWebhook',
        'ReplicateWebhook',
        'StartPrediction',
        'StartTraining',
        'Training/RecordFailure',
      ].sort(),
    );
    for (const id of readers) {
      expect(resources('AWS::Lambda::Function')[id].Properties.Environment.Variables.REPLICATE_TOKEN_SECRET).toEqual({ Ref: secret });
    }
  });

  it('signs Content Credentials with an RSA key that only the delivery may use, to sign (decision 062)', () => {
    expect(resources('AWS::KMS::Key')[signingKey].Properties).toMatchObject({ KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' });
    const signers = Object.keys(resources('AWS::Lambda::Function')).filter((id) =>
      statementsOf(id).some((s) => actionsOf(s).some((a) => a.startsWith('kms:')) && JSON.stringify(s.Resource).includes(signingKey)),
    );
    expect(signers.map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual(['DeliverImages']);
    const env = resources('AWS::Lambda::Function')[fnId('DeliverImages')].Properties.Environment.Variables;
    expect(JSON.stringify(env.CREDENTIALS_KEY_ID)).toContain(signingKey);
    expect(env.CREDENTIALS_CHAIN_SECRET).toEqual({ Ref: chain });
  });

  it('grants each workflow function exactly what it calls', () => {
    const token = ['secretsmanager:DescribeSecret token', 'secretsmanager:GetSecretValue token'];
    const ledger = ['dynamodb:GetItem accounts', 'dynamodb:PutItem accounts', 'dynamodb:UpdateItem accounts'];
    const record = ['dynamodb:GetItem generations', 'dynamodb:UpdateItem generations'];
    const sorted = (...lists: string[][]) => lists.flat().sort();
    expect(grantsOf('ReserveCredits')).toEqual(sorted(record, ledger));
    expect(grantsOf('CheckPolicy')).toEqual(sorted(record, token, ['dynamodb:GetItem talent']));
    // The admission queue and bucket (decision 065), and the talent's excluded industries (a start CheckPolicy classifies takes two creations).
    expect(grantsOf('AwaitAdmission')).toEqual(sorted(record, ['dynamodb:PutItem generations', 'dynamodb:DeleteItem generations', 'dynamodb:Query generations', 'dynamodb:GetItem talent']));
    expect(resources('AWS::Lambda::Function')[fnId('AwaitAdmission')].Properties.Environment.Variables.REPLICATE_CREATIONS_PER_MINUTE).toBe('600');
    expect(grantsOf('StartPrediction')).toEqual(sorted(record, token, ['dynamodb:GetItem talent']));
    // Resuming itself (the webhook came first) names the machine by its name: the machine refers to the function.
    expect(grantsOf('AwaitPrediction')).toEqual(sorted(record, ['states:SendTaskSuccess machine-by-name']));
    expect(grantsOf('PollPrediction')).toEqual(sorted(record, token));
    expect(grantsOf('DeliverImages')).toEqual(
      sorted(
        ['dynamodb:GetItem generations', 'dynamodb:PutItem generations', 'dynamodb:UpdateItem generations'],
        token,
        ledger,
        // The talent's application: its address tells the talent's own account (no royalty on its images).
        ['dynamodb:GetItem talent', 'dynamodb:UpdateItem talent', 'dynamodb:GetItem applications', 's3:PutObject images/generations/*'],
        // Content Credentials (decision 062): the key signs in KMS, the chain names it.
        ['kms:Sign signing-key', 'secretsmanager:DescribeSecret certificate-chain', 'secretsmanager:GetSecretValue certificate-chain'],
      ),
    );
    expect(grantsOf('RecordFailure')).toEqual(sorted(record, token, ledger));
    expect(grantsOf('ReplicateWebhook')).toEqual(
      sorted(
        record,
        token,
        ['states:SendTaskSuccess machine', 'dynamodb:UpdateItem rate-limits'],
        ['dynamodb:DeleteItem idempotency', 'dynamodb:GetItem idempotency', 'dynamodb:PutItem idempotency', 'dynamodb:UpdateItem idempotency'],
      ),
    );
    // The allowance's schedule is a rule of the main stack: its on-failure destination
    // (infra/lib/platform/event-rules.ts) receives the events the function failed on.
    const onFailure = (grant: string) => grant.includes('MonthlyAllowanceDeadLettersFailed');
    expect(grantsOf('AccountsMonthlyAllowance').filter((g) => !onFailure(g))).toEqual(sorted(ledger, ['dynamodb:BatchGetItem accounts', 'dynamodb:Query accounts/index/byCreated']));
    expect(grantsOf('AccountsMonthlyAllowance').filter(onFailure).map((g) => g.split(' ')[0])).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
  });

  it('closes the month before on the 1st at 01:00 UTC: the RoyaltyClose machine, its rule, its alarm and its grants', () => {
    const closeMachine = idOf('AWS::StepFunctions::StateMachine', 'RoyaltyClose');
    const props = resources('AWS::StepFunctions::StateMachine')[closeMachine].Properties;
    expect(props.StateMachineName).toMatch(/-RoyaltyClose$/);
    expect(props.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
    const definition = JSON.stringify(props.DefinitionString);
    for (const step of ['PlanClose', 'CloseTalentMonth']) expect(definition).toContain(fnId(step));
    const rule = resources('AWS::Events::Rule')[idOf('AWS::Events::Rule', 'MonthlyCloseSchedule')];
    expect(rule.Properties.ScheduleExpression).toBe('cron(0 1 1 * ? *)');
    expect(rule.Properties.Targets).toEqual([expect.objectContaining({ Arn: { Ref: closeMachine }, RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21_600 } })]);
    // Its failures alarm like the Generation machine's (the Alarms nested stack finds every machine).
    const alarms = nested('Alarms').findResources('AWS::CloudWatch::Alarm');
    expect(Object.keys(alarms).filter((id) => /RoyaltyClose(Failed|TimedOut|Aborted)/.test(id))).toHaveLength(3);
    expect(grantsOf('PlanClose')).toEqual(['dynamodb:Scan talent']);
    expect(grantsOf('CloseTalentMonth').filter((g) => !g.startsWith('ses:'))).toEqual(
      ['dynamodb:GetItem applications', 'dynamodb:GetItem generations', 'dynamodb:GetItem talent', 'dynamodb:PutItem generations', 'dynamodb:Query generations', 'dynamodb:UpdateItem generations'],
    );
  });

  it("grants the console's statement routes reads only", () => {
    const writes = (prefix: string) => grantsOf(prefix).filter((g) => !/^dynamodb:(GetItem|Query) /.test(g));
    for (const reader of ['AdminListStatements', 'AdminExportPayouts', 'AdminGetStatement']) expect({ reader, writes: writes(reader) }).toEqual({ reader, writes: [] });
    expect(grantsOf('AdminGetStatement')).toEqual(['dynamodb:GetItem generations', 'dynamodb:GetItem talent', 'dynamodb:Query generations']);
    expect(Object.keys(resources('AWS::Lambda::Function')).filter((k) => k.startsWith('AdminMarkPayout') || k.startsWith('PutPayoutDetails'))).toEqual([]);
  });

  it('gives the image delivery sharp beside its bundle, memory for decoding and time for four downloads', () => {
    const deliver = resources('AWS::Lambda::Function')[fnId('DeliverImages')];
    expect(deliver.Metadata['app:nodeModules']).toEqual(['sharp']);
    expect(deliver.Properties.MemorySize).toBe(1024);
    expect(deliver.Properties.Timeout).toBe(180);
  });
  it("gives both start functions the stage's daily budget of model failures (decision 038)", () => {
    for (const start of ['StartGeneration', 'ReplicateImageGeneration']) {
      expect(resources('AWS::Lambda::Function')[fnId(start)].Properties.Environment.Variables.MODEL_FAILURES_PER_DAY).toBe('20');
    }
  });

});

describe('license files and erasure (infra, decision 035)', () => {
  const routeOf = (key: string) => Object.values(resources('AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === key)!;

  it('serves the thumbnail and the file check as public routes with sharp, the check counted per network', () => {
    expect(routeOf('GET /licenses/{id}/thumbnail').Metadata['app:access']).toBe('public');
    expect(routeOf('POST /licenses/{id}/check').Metadata['app:access']).toBe('public');
    for (const prefix of ['GetLicenseThumbnail', 'CheckLicenseFile']) {
      const fn = resources('AWS::Lambda::Function')[fnId(prefix)];
      expect({ prefix, modules: fn.Metadata['app:nodeModules'], memory: fn.Properties.MemorySize }).toEqual({ prefix, modules: ['sharp'], memory: 1024 });
    }
    // The thumbnail is kept beside the image it is made from; the check reads the image and keeps its hash on the license.
    expect(grantsOf('GetLicenseThumbnail')).toEqual(['dynamodb:GetItem generations', 's3:GetObject images/generations/*', 's3:PutObject images/generations/*']);
    expect(grantsOf('CheckLicenseFile')).toEqual(['dynamodb:GetItem generations', 'dynamodb:UpdateItem generations', 'dynamodb:UpdateItem rate-limits', 's3:GetObject images/generations/*']);
    // The public license's own function still only reads.
    expect(grantsOf('GetLicense')).toEqual(['dynamodb:GetItem generations']);
  });

  it("lets the erasure scan and redact the Generations table, read and delete only delivered files, with sharp and API Gateway's 29 s", () => {
    const erase = resources('AWS::Lambda::Function')[fnId('ConsoleErasePerson')];
    expect({ modules: erase.Metadata['app:nodeModules'], memory: erase.Properties.MemorySize, timeout: erase.Properties.Timeout }).toEqual({ modules: ['sharp'], memory: 1024, timeout: 29 });
    const grants = grantsOf('ConsoleErasePerson');
    expect(grants.filter((g) => g.endsWith(' generations'))).toEqual(['dynamodb:DeleteItem generations', 'dynamodb:Query generations', 'dynamodb:Scan generations', 'dynamodb:UpdateItem generations']);
    expect(grants.filter((g) => g.includes(' images'))).toEqual(['s3:DeleteObject images/generations/*', 's3:GetObject images/generations/*', 's3:ListBucket images']);
    const list = statementsOf('ConsoleErasePerson').find((s) => actionsOf(s).includes('s3:ListBucket') && JSON.stringify(s.Resource).includes(bucket));
    expect(list?.Condition).toEqual({ StringLike: { 's3:prefix': ['generations/*'] } });
  });
});
