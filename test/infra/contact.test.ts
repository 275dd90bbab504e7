import { nonLogActions, synthStack } from '../support/stack';

const { template, logicalId, statementsOf, routeKeys } = synthStack({ contactEmail: 'team@studio.test' });
const tableId = logicalId('AWS::DynamoDB::Table', 'ContactMessagesTable');
const busId = logicalId('AWS::Events::EventBus', 'EventsBus');

describe('contact messages', () => {
  it('serves POST /contact as a public route', () => {
    const route = routeKeys().find((r) => r.RouteKey === 'POST /contact');
    expect(route).toBeDefined();
    expect(route!.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('lets the receiving function write only the messages table and put events only on our bus', () => {
    const statements = statementsOf('ContactSendMessage');
    expect(nonLogActions(statements)).toEqual(['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'events:PutEvents']);
    for (const s of statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'))) {
      expect(s.Resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
    }
    expect(statements.find((s) => s.Action === 'events:PutEvents')!.Resource).toEqual({ 'Fn::GetAtt': [busId, 'Arn'] });
    expect(JSON.stringify(statements)).not.toMatch(/"Resource":"\*"/);
  });

  it('lets the consumer read and update messages and send only from our identity', () => {
    expect(nonLogActions(statementsOf('ContactNotify'))).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'ses:SendEmail']);
  });

  it("emails the stage's contact address", () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { CONTACT_EMAIL: 'team@studio.test', MESSAGES_TABLE: { Ref: tableId } } },
    });
  });

  it('defaults the contact address to the sender address', () => {
    const { template: t } = synthStack({ senderEmail: 'hi@studio.test' });
    const fn = Object.values(t.findResources('AWS::Lambda::Function')).find((f) => f.Properties.Environment?.Variables?.CONTACT_EMAIL);
    expect(fn!.Properties.Environment.Variables.CONTACT_EMAIL).toBe('hi@studio.test');
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

