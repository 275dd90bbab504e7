import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { rateLimiter, type RateRule } from '../../../functions/shared/rate-limit';
import { useTwin } from '../../support/twin';

jest.setTimeout(60_000);
const twin = useTwin();

function client(): DynamoDBDocumentClient {
  const env = twin().sdkEnv;
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region: env.AWS_REGION, credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }),
  );
}

const rule = (subject: string, limit: number): RateRule => ({ name: 'test.ip', subject, limit, windowSeconds: 3600, message: `At most ${limit} an hour.` });

describe('rate limiter on the RateLimits table', () => {
  it('lets exactly the limit through when 40 requests race, and refuses the rest with the rule message', async () => {
    const limit = rateLimiter(client(), twin().physicalName('RateLimitsTable'));
    const subject = `203.0.113.${Math.floor(Math.random() * 250)}-${Date.now()}`;
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => limit([rule(subject, 7)])));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(7);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(33);
    for (const r of refused) expect(r.reason).toMatchObject({ status: 429, message: 'At most 7 an hour.' });
  });

  it('counts a batch by its cost and stores no subject in clear', async () => {
    const table = twin().physicalName('RateLimitsTable');
    const limit = rateLimiter(client(), table);
    const subject = `someone+${Date.now()}@example.com`;
    await limit([rule(subject, 10)], 6);
    await expect(limit([rule(subject, 10)], 5)).rejects.toMatchObject({ status: 429 });
    await limit([rule(subject, 10)], 4);
    await expect(limit([rule(subject, 10)], 1)).rejects.toMatchObject({ status: 429 });
    const items = (await client().send(new ScanCommand({ TableName: table }))).Items ?? [];
    expect(JSON.stringify(items)).not.toContain(subject);
    expect(JSON.stringify(items)).not.toContain('example.com');
  });
});
