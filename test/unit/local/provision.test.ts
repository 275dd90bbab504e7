import { toCorsConfiguration, toCreateTableInput, toCreateUserPoolClientInput, toCreateUserPoolInput } from '../../../infra/local/provision';

describe('CloudFormation -> API mapping for the twin', () => {
  test('a PAY_PER_REQUEST table keeps its indexes and turns StreamSpecification into the API shape', () => {
    const input = toCreateTableInput('t', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [{ IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' }, ContributorInsightsSpecification: { Enabled: true } }],
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      SSESpecification: { SSEEnabled: true },
    });
    expect(input).toEqual({
      TableName: 't',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [{ IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    });
  });

  test('a provisioned table (the CloudFormation default) gets throughput on the table and its GSIs', () => {
    const input = toCreateTableInput('t', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      ProvisionedThroughput: { ReadCapacityUnits: '3', WriteCapacityUnits: 4 },
      GlobalSecondaryIndexes: [{ IndexName: 'i', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
    });
    expect(input.BillingMode).toBe('PROVISIONED');
    expect(input.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 3, WriteCapacityUnits: 4 });
    expect(input.GlobalSecondaryIndexes![0].ProvisionedThroughput).toEqual({ ReadCapacityUnits: 3, WriteCapacityUnits: 4 });
  });

  test('CORS rules are renamed from the CloudFormation shape', () => {
    expect(
      toCorsConfiguration({ CorsRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], ExposedHeaders: ['ETag'], MaxAge: 3000, Id: 'uploads' }] }),
    ).toEqual({ CORSRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3000, ID: 'uploads' }] });
    expect(toCorsConfiguration(undefined)).toBeUndefined();
  });

  test('user pool properties map key for key; triggers and unknown keys are left out', () => {
    const input = toCreateUserPoolInput('pool', {
      UserPoolName: 'ignored',
      UsernameAttributes: ['email'],
      Schema: [{ Name: 'role', AttributeDataType: 'String', Mutable: false, StringAttributeConstraints: { MinLength: '1', MaxLength: '16' } }],
      LambdaConfig: { PreSignUp: 'arn:...' },
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
    expect(input).toEqual({
      PoolName: 'pool',
      UsernameAttributes: ['email'],
      Schema: [{ Name: 'role', AttributeDataType: 'String', Mutable: false, StringAttributeConstraints: { MinLength: '1', MaxLength: '16' } }],
    });
  });

  test('every app client allows password and refresh-token sign-in locally (cognito-local has no SRP)', () => {
    expect(toCreateUserPoolClientInput('pool', 'WebClient', { ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH'] })).toEqual({
      UserPoolId: 'pool',
      ClientName: 'WebClient',
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
    expect(toCreateUserPoolClientInput('pool', 'X', { ClientName: 'web', ExplicitAuthFlows: ['USER_PASSWORD_AUTH'] }).ExplicitAuthFlows).toEqual([
      'ALLOW_USER_PASSWORD_AUTH',
      'ALLOW_REFRESH_TOKEN_AUTH',
    ]);
  });
});
