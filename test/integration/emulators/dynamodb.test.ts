import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamo } from '../../../infra/local/emulators/dynamodb';
import { TWIN_CREDENTIALS, TWIN_REGION, type EmulatorHandle } from '../../../infra/local/emulators/ports';
import { createTables } from '../../../infra/local/provision';

jest.setTimeout(30_000);

// CloudFormation Properties as CDK synthesizes them for our tables (intrinsics resolved).
const waitlistTable = {
  name: 'marketplace-local-waitlist',
  properties: {
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'gsi1pk', AttributeType: 'S' },
      { AttributeName: 'gsi1sk', AttributeType: 'N' },
    ],
    BillingMode: 'PAY_PER_REQUEST',
    GlobalSecondaryIndexes: [
      {
        IndexName: 'byPosition',
        KeySchema: [
          { AttributeName: 'gsi1pk', KeyType: 'HASH' },
          { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    SSESpecification: { SSEEnabled: true },
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
  },
};
const ledgerTable = {
  name: 'marketplace-local-ledger',
  properties: {
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'S' },
      { AttributeName: 'createdAt', AttributeType: 'S' },
    ],
    ProvisionedThroughput: { ReadCapacityUnits: '2', WriteCapacityUnits: '2' },
    LocalSecondaryIndexes: [
      {
        IndexName: 'byCreatedAt',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'createdAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  },
};

describe('DynamoDB Local', () => {
  let dynamo: EmulatorHandle;
  let client: DynamoDBClient;
  let doc: DynamoDBDocumentClient;

  beforeAll(async () => {
    dynamo = await startDynamo();
    client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    doc = DynamoDBDocumentClient.from(client);
  });
  afterAll(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  test('answers on 127.0.0.1', () => {
    expect(dynamo.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('creates tables from CloudFormation properties, idempotently', async () => {
    expect(await createTables(dynamo.endpoint, [waitlistTable, ledgerTable])).toEqual({
      created: [waitlistTable.name, ledgerTable.name],
      existing: [],
    });
    expect(await createTables(dynamo.endpoint, [waitlistTable, ledgerTable])).toEqual({
      created: [],
      existing: [waitlistTable.name, ledgerTable.name],
    });

    const { Table: waitlist } = await client.send(new DescribeTableCommand({ TableName: waitlistTable.name }));
    expect(waitlist?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    expect(waitlist?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(['byPosition']);
    expect(waitlist?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: waitlistTable.name }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: 'expiresAt', TimeToLiveStatus: 'ENABLED' });

    const { Table: ledger } = await client.send(new DescribeTableCommand({ TableName: ledgerTable.name }));
    expect(ledger?.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 2, WriteCapacityUnits: 2 });
    expect(ledger?.LocalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(['byCreatedAt']);
  });

  test('TransactWriteItems: a capped counter and its entry commit together or not at all', async () => {
    const signup = (email: string) =>
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: waitlistTable.name,
                Key: { pk: 'COUNTER' },
                UpdateExpression: 'ADD #n :one',
                ConditionExpression: 'attribute_not_exists(#n) OR #n < :cap',
                ExpressionAttributeNames: { '#n': 'count' },
                ExpressionAttributeValues: { ':one': 1, ':cap': 2 },
              },
            },
            { Put: { TableName: waitlistTable.name, Item: { pk: `SIGNUP#${email}`, email }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      );
    await signup('a@example.com');
    await signup('b@example.com');
    const third = signup('c@example.com');
    await expect(third).rejects.toBeInstanceOf(TransactionCanceledException);
    await expect(third).rejects.toMatchObject({ CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });

    expect((await doc.send(new GetCommand({ TableName: waitlistTable.name, Key: { pk: 'COUNTER' } }))).Item).toEqual({ pk: 'COUNTER', count: 2 });
    expect((await doc.send(new GetCommand({ TableName: waitlistTable.name, Key: { pk: 'SIGNUP#c@example.com' } }))).Item).toBeUndefined();
  });
});
