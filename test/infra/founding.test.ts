import { REJECTED_PHOTO_RETENTION_DAYS } from '../../events/founding-values';
import { actionsOf, NAMED_STAGE, nonLogActions, synthStack } from '../support/stack';

const { template, logicalId, statementsOf, routeKeys } = synthStack(NAMED_STAGE);
const bucketId = logicalId('AWS::S3::Bucket', 'FoundingPhotos');
const tableId = logicalId('AWS::DynamoDB::Table', 'FoundingApplicationsTable');
const objects = (pattern: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${pattern}`]] });
const idempotencyId = logicalId('AWS::DynamoDB::Table', 'IdempotencyTable');
const onIdempotency = (s: { Resource: unknown }) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [idempotencyId, 'Arn'] });
const IDEMPOTENCY_ACTIONS = ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
/** A function's statements apart from its idempotency records. */
const ownStatements = (fn: string) => statementsOf(fn).filter((s) => !onIdempotency(s));
const idempotencyActions = (fn: string) => nonLogActions(statementsOf(fn).filter(onIdempotency));

const WORKFLOW_FUNCTIONS = ['AllocateSpot', 'AwaitIdentity', 'AwaitReview', 'CreateTalent', 'DeletePhotos', 'InviteTalent', 'RecordEmailFailure', 'RecordFailure', 'SendApplicationEmail', 'ValidatePhotos'];

/** Statements of a function that touch the photos bucket. */
const s3Statements = (fn: string) => statementsOf(fn).filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')));

describe('founding photos bucket', () => {
  const bucket = template.findResources('AWS::S3::Bucket')[bucketId];

  it('is private, encrypted, TLS-only and announces uploads on EventBridge', () => {
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    const policy = Object.values(template.findResources('AWS::S3::BucketPolicy')).find((p) => p.Properties.Bucket.Ref === bucketId)!;
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    expect(JSON.stringify(policy.Properties.PolicyDocument)).not.toMatch(/"Effect":"Allow","Principal":\{"AWS":"\*"\}/);
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: bucketId },
      NotificationConfiguration: { EventBridgeConfiguration: {} },
    });
  });

  it('lets only the site PUT from the browser, with the signed headers', () => {
    expect(bucket.Properties.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({ AllowedMethods: ['PUT'], AllowedOrigins: [NAMED_STAGE.siteUrl], AllowedHeaders: ['content-type', 'if-none-match'] }),
    ]);
  });

  it('expires pending uploads after 14 days and logs access', () => {
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: 'pending/', ExpirationInDays: 14, Status: 'Enabled' }),
    );
    expect(bucket.Properties.LoggingConfiguration.DestinationBucketName.Ref).toMatch(/^AccessLogs/);
  });

  it('expires photos tagged for deletion after the retention period and a margin, a backstop of the workflow (decision 017)', () => {
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual({
      Id: 'expire-photos-marked-for-deletion',
      Prefix: 'applications/',
      TagFilters: [{ Key: 'retention', Value: 'delete' }],
      ExpirationInDays: REJECTED_PHOTO_RETENTION_DAYS + 7,
      Status: 'Enabled',
    });
  });
});

describe('applications table', () => {
  it('has pk/sk, the byList index, TTL and point-in-time recovery', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[tableId];
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual([
      expect.objectContaining({ IndexName: 'byList', KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }, { AttributeName: 'gsi1sk', KeyType: 'RANGE' }] }),
    ]);
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });
});

describe('routes', () => {
  const route = (key: string) => routeKeys().find((r) => r.RouteKey === key);
  it.each(['POST /founding-uploads', 'POST /founding-talent-signup', 'POST /functions/v1/founding-talent-signup', 'POST /founding-confirm', 'GET /founding-spots'])(
    'serves %s publicly',
    (key) => {
      expect(route(key)).toBeDefined();
      expect(route(key)!.AuthorizationType ?? 'NONE').toBe('NONE');
    },
  );
  it.each([
    'GET /admin/applications',
    'GET /admin/applications/{id}',
    'POST /admin/applications/{id}/decision',
    'POST /admin/applications/{id}/email-preview',
    'POST /admin/applications/{id}/retry',
  ])('serves %s behind the JWT authorizer', (key) => {
    expect(route(key)).toBeDefined();
    expect(route(key)!.AuthorizationType).toBe('JWT');
  });
});

describe('least privilege', () => {
  it('lets the presign function put objects under pending/ only, and never read them', () => {
    // Issued keys, the session's conditional counter (decision 013) and the rate-limit counters.
    // (UpdateItem twice: the applications table and the RateLimits table.)
    expect(nonLogActions(ownStatements('FoundingCreateUploads'))).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:UpdateItem', 's3:PutObject']);
    expect(idempotencyActions('FoundingCreateUploads')).toEqual(IDEMPOTENCY_ACTIONS);
    expect(s3Statements('FoundingCreateUploads')).toEqual([expect.objectContaining({ Action: 's3:PutObject', Resource: objects('pending/*') })]);
  });

  it('lets signup read pending uploads and list only their prefix', () => {
    expect(idempotencyActions('FoundingSignup')).toEqual(IDEMPOTENCY_ACTIONS);
    expect(nonLogActions(ownStatements('FoundingSignup'))).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      // The rate-limit counters.
      'dynamodb:UpdateItem',
      'events:PutEvents',
      's3:GetObject',
      's3:ListBucket',
      // The address confirmation email (decision 013).
      'ses:SendEmail',
    ]);
    const [get, list] = s3Statements('FoundingSignup');
    expect(get.Resource).toEqual(objects('pending/*'));
    expect(list).toMatchObject({ Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] }, Condition: { StringLike: { 's3:prefix': ['pending/*'] } } });
  });

  it('lets the confirmation read and update applications, publish and count, nothing else (decision 013)', () => {
    expect(nonLogActions(ownStatements('FoundingConfirm'))).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:UpdateItem', 'events:PutEvents']);
    expect(s3Statements('FoundingConfirm')).toEqual([]);
  });

  it('lets the upload recorder read pending uploads and put records, nothing else', () => {
    const failed = { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'FoundingRecordUploadDeadLettersFailed'), 'Arn'] };
    const onFailed = (s: { Resource: unknown }) => JSON.stringify(s.Resource) === JSON.stringify(failed);
    // Its on-failure destination (infra/lib/platform/event-rules.ts) receives uploads it failed to record.
    expect(nonLogActions(statementsOf('FoundingRecordUpload').filter(onFailed))).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(nonLogActions(statementsOf('FoundingRecordUpload').filter((s) => !onFailed(s)))).toEqual(['dynamodb:PutItem', 's3:GetObject']);
    expect(s3Statements('FoundingRecordUpload')[0].Resource).toEqual(objects('pending/*'));
  });

  it('lets the email step read and write the application, keep its idempotency records and send', () => {
    const fn = 'FoundingSendApplicationEmail';
    expect(idempotencyActions(fn)).toEqual(IDEMPOTENCY_ACTIONS);
    // History is written only while the application exists: a condition check beside the put.
    expect(nonLogActions(ownStatements(fn)).filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it('gives the spots function one read', () => {
    expect(nonLogActions(statementsOf('FoundingGetSpots'))).toEqual(['dynamodb:GetItem']);
  });

  it('lets the admin list read the byList index only', () => {
    const statements = statementsOf('FoundingListApplications');
    expect(nonLogActions(statements)).toEqual(['dynamodb:Query']);
    const query = statements.find((s) => actionsOf(s).includes('dynamodb:Query'))!;
    expect(query.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/byList']] });
  });

  it('lets the admin detail read stored photos, not pending uploads', () => {
    expect(nonLogActions(statementsOf('FoundingGetApplication'))).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 's3:GetObject']);
    expect(s3Statements('FoundingGetApplication')[0].Resource).toEqual(objects('applications/*'));
  });

  it('lets the decision API resume the review workflow and nothing more of Step Functions', () => {
    const statements = statementsOf('FoundingDecideApplication');
    expect(nonLogActions(statements).filter((a) => a.startsWith('states:'))).toEqual(['states:SendTaskSuccess']);
    const resume = statements.find((s) => actionsOf(s).includes('states:SendTaskSuccess'))!;
    expect(resume.Resource).toEqual({ Ref: logicalId('AWS::StepFunctions::StateMachine', 'FoundingWorkflow') });
    expect(nonLogActions(statements).some((a) => a.startsWith('s3:'))).toBe(false);
    // One transaction updates the application and puts its history entry; nothing is deleted.
    expect(nonLogActions(statements).filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });

  it('lets the retry API start the workflow and nothing more of Step Functions; the preview read one item', () => {
    const statements = statementsOf('FoundingRetryApplication');
    expect(nonLogActions(statements).filter((a) => a.startsWith('states:'))).toEqual(['states:StartExecution']);
    const start = statements.find((s) => actionsOf(s).includes('states:StartExecution'))!;
    expect(start.Resource).toEqual({ Ref: logicalId('AWS::StepFunctions::StateMachine', 'FoundingWorkflow') });
    expect(nonLogActions(statements).filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(nonLogActions(statementsOf('FoundingPreviewDecisionEmail'))).toEqual(['dynamodb:GetItem']);
  });

  it('lets delete-photos tag and delete stored photos only', () => {
    const tagging = s3Statements('FoundingDeletePhotos').find((s) => actionsOf(s).includes('s3:PutObjectTagging'))!;
    expect(actionsOf(tagging)).toEqual(['s3:PutObjectTagging']);
    expect(tagging.Resource).toEqual(objects('applications/*'));
  });

  it('never grants a founding function s3:* or the whole bucket', () => {
    const fns = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith('Founding'));
    expect(fns.length).toBeGreaterThanOrEqual(14);
    for (const fn of fns) {
      for (const s of statementsOf(fn)) {
        expect(actionsOf(s)).not.toContain('s3:*');
        if (actionsOf(s).some((a) => /^s3:(Get|Put|Delete)Object$/.test(a))) {
          expect(JSON.stringify(s.Resource)).toMatch(/\/(pending|applications)\/\*/);
        }
      }
    }
  });

  it('gives validate-photos sharp as a node module, memory and time', () => {
    const fn = template.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', 'FoundingValidatePhotos')];
    expect(fn.Metadata['app:nodeModules']).toEqual(['sharp']);
    expect(fn.Properties.MemorySize).toBeGreaterThanOrEqual(2048);
    expect(fn.Properties.Timeout).toBe(300);
  });
});

describe('events and workflow', () => {
  it('routes S3 Object Created under pending/ of the photos bucket to the upload recorder', () => {
    const rule = Object.values(template.findResources('AWS::Events::Rule')).find((r) => r.Properties.EventPattern.source?.[0] === 'aws.s3')!;
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: { bucket: { name: [{ Ref: bucketId }] }, object: { key: [{ prefix: 'pending/' }] } },
    });
    expect(rule.Properties.EventBusName).toBe('default');
    expect(rule.Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [logicalId('AWS::Lambda::Function', 'FoundingRecordUpload'), 'Arn'] });
  });

  it('starts the state machine with the detail of FoundingApplication.Submitted', () => {
    const smId = logicalId('AWS::StepFunctions::StateMachine', 'FoundingWorkflow');
    const rule = Object.values(template.findResources('AWS::Events::Rule')).find(
      (r) => r.Properties.EventPattern['detail-type']?.[0] === 'FoundingApplication.Submitted',
    )!;
    expect(rule.Properties.Targets[0]).toMatchObject({ Arn: { Ref: smId }, InputPath: '$.detail', RetryPolicy: { MaximumRetryAttempts: 8 } });
  });

  it('runs the state machine built from its definition in code, logging without execution data, and X-Ray', () => {
    const sm = Object.values(template.findResources('AWS::StepFunctions::StateMachine'))[0];
    // The definition is CDK's: a JSON string joined around the functions' ARNs, nothing left to substitute.
    expect(sm.Properties.DefinitionSubstitutions).toBeUndefined();
    const parts: unknown[] = sm.Properties.DefinitionString['Fn::Join'][1];
    const functionArns = parts.filter((p): p is { 'Fn::GetAtt': [string, string] } => typeof p === 'object' && p !== null && 'Fn::GetAtt' in p);
    expect(new Set(functionArns.map((p) => p['Fn::GetAtt'][0]))).toEqual(new Set(WORKFLOW_FUNCTIONS.map((n) => logicalId('AWS::Lambda::Function', `Founding${n}`))));
    expect(parts.filter((p) => typeof p === 'string').join('')).not.toMatch(/\$\{/);
    expect(sm.Properties.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
    expect(sm.Properties.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('lets the state machine invoke exactly its ten task functions (and their versions)', () => {
    const smRole = Object.values(template.findResources('AWS::StepFunctions::StateMachine'))[0].Properties.RoleArn['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === smRole))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    const invoke = statements.filter((s) => actionsOf(s).includes('lambda:InvokeFunction'));
    const resources = invoke.flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
    // CDK's LambdaInvoke grants each function and its qualified ARNs (`<arn>:*`, versions and aliases).
    const expected = WORKFLOW_FUNCTIONS.map((n) => logicalId('AWS::Lambda::Function', `Founding${n}`)).flatMap((id) => [
      { 'Fn::GetAtt': [id, 'Arn'] },
      { 'Fn::Join': ['', [{ 'Fn::GetAtt': [id, 'Arn'] }, ':*']] },
    ]);
    expect(resources).toHaveLength(expected.length);
    expect(resources).toEqual(expect.arrayContaining(expected));
    for (const s of statements.filter((s) => s.Resource === '*')) {
      expect(actionsOf(s).every((a) => a.startsWith('xray:') || a.startsWith('logs:'))).toBe(true);
    }
  });
});
