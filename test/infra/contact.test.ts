import { App } from 'aws-cdk-lib';
import { stageConfig } from '../../infra/lib/platform/stage-config';
import { NAMED_STAGE, nonLogActions, synthStack } from '../support/stack';

const { template, logicalId, statementsOf, routeKeys } = synthStack(NAMED_STAGE);
const tableId = logicalId('AWS::DynamoDB::Table', 'ContactMessagesTable');
const busId = logicalId('AWS::Events::EventBus', 'EventsBus');
const idempotencyId = logicalId('AWS::DynamoDB::Table', 'IdempotencyTable');
const rateLimitsId = logicalId('AWS::DynamoDB::Table', 'RateLimitsTable');
const onTable = (id: string) => (s: { Resource: unknown }) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] });
const IDEMPOTENCY_ACTIONS = ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];

describe('contact messages', () => {
  it('serves POST /contact as a public route', () => {
    const route = routeKeys().find((r) => r.RouteKey === 'POST /contact');
    expect(route).toBeDefined();
    expect(route!.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('lets the receiving function write only the messages table (and its idempotency records) and put events only on our bus', () => {
    const statements = statementsOf('ContactSendMessage');
    expect(nonLogActions(statements.filter(onTable(tableId)))).toEqual(['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(nonLogActions(statements.filter(onTable(idempotencyId)))).toEqual(IDEMPOTENCY_ACTIONS);
    // Its per-IP counters: one conditional UpdateItem each.
    expect(nonLogActions(statements.filter(onTable(rateLimitsId)))).toEqual(['dynamodb:UpdateItem']);
    expect(nonLogActions(statements.filter((s) => !onTable(tableId)(s) && !onTable(idempotencyId)(s) && !onTable(rateLimitsId)(s)))).toEqual(['events:PutEvents']);
    expect(statements.find((s) => s.Action === 'events:PutEvents')!.Resource).toEqual({ 'Fn::GetAtt': [busId, 'Arn'] });
    expect(JSON.stringify(statements)).not.toMatch(/"Resource":"\*"/);
  });

  it('lets the consumer read and update messages, keep its idempotency records, and send only from our identity', () => {
    const statements = statementsOf('ContactNotify');
    expect(nonLogActions(statements.filter(onTable(tableId)))).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(nonLogActions(statements.filter(onTable(idempotencyId)))).toEqual(IDEMPOTENCY_ACTIONS);
    const failed = logicalId('AWS::SQS::Queue', 'ContactNotifyDeadLettersFailed');
    const onFailed = (s: { Resource: unknown }) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [failed, 'Arn'] });
    // Its on-failure destination (infra/lib/platform/event-rules.ts) receives events it failed on.
    expect(nonLogActions(statements.filter(onFailed))).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(nonLogActions(statements.filter((s) => !onTable(tableId)(s) && !onTable(idempotencyId)(s) && !onFailed(s)))).toEqual(['ses:SendEmail']);
  });

  it("emails the stage's contact address", () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { CONTACT_EMAIL: NAMED_STAGE.contactEmail, MESSAGES_TABLE: { Ref: tableId } } },
    });
  });

  it('defaults the contact address to the sender address', () => {
    // The function is handed the stage's contactEmail (above); without one, that is the sender address.
    expect(stageConfig(new App({ context: { senderEmail: 'hi@studio.test' } })).contactEmail).toBe('hi@studio.test');
    expect(stageConfig(new App({ context: { senderEmail: 'hi@studio.test', contactEmail: 'team@studio.test' } })).contactEmail).toBe('team@studio.test');
  });

  it('routes Contact.MessageReceived to the consumer with retries and a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { 'detail-type': ['Contact.MessageReceived'] },
      Targets: [{ RetryPolicy: { MaximumRetryAttempts: 8 }, DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId('AWS::SQS::Queue', 'ContactNotifyDeadLetters'), 'Arn'] } } }],
    });
  });

  it('expires the per-sender counters by TTL', () => {
    const table = template.findResources('AWS::DynamoDB::Table')[tableId];
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
  });
});

