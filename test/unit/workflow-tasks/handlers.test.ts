import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { EMAIL, ID, application, quiet } from './support';

quiet();
const dynamo = mockClient(DynamoDBDocumentClient);
// The idempotency records (Powertools writes them with the plain client).
const idempotencyTable = mockClient(DynamoDBClient);
const ses = mockClient(SESv2Client);

const ENV = {
  APPLICATIONS_TABLE: 'FoundingApplications',
  IDEMPOTENCY_TABLE: 'Idempotency',
  TALENT_TABLE: 'Talent',
  PHOTOS_BUCKET: 'photos',
  STRIPE_SECRET_KEY_SECRET: 'stripe-secret-key',
  USER_POOL_ID: 'us-east-1_pool',
  SENDER_EMAIL: 'hello@humanly.test',
  REVIEWERS_EMAIL: 'reviewers@humanly.test',
  SITE_URL: 'https://humanly.test',
  ADMIN_URL: 'https://admin.humanly.test',
  AWS_REGION: 'us-east-1',
};
const STEPS = ['validate-photos', 'send-application-email', 'record-email-failure', 'await-review', 'allocate-spot', 'create-talent', 'invite-talent', 'delete-photos', 'record-failure'];

/**
 * Loads a handler with `env` (config is read at module load). `isolated` gives a fresh module
 * registry, so a handler can be loaded with different environments; the SDK mocks above only
 * reach handlers loaded in the shared registry.
 */
function load(step: string, env: Record<string, string | undefined> = ENV, isolated = true): { handler: (event: unknown) => Promise<unknown> } {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    let mod: unknown;
    const path = `../../../functions/founding/steps/${step}/handler`;
    // A synchronous require: jest.isolateModules runs its callback synchronously.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (isolated) jest.isolateModules(() => (mod = require(path)));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    else mod = require(path);
    return mod as { handler: (event: unknown) => Promise<unknown> };
  } finally {
    process.env = saved;
  }
}

// Clients resolve their region when they send, after load() has restored the environment.
const savedRegion = process.env.AWS_REGION;
beforeAll(() => {
  process.env.AWS_REGION = 'us-east-1';
});
afterAll(() => {
  if (savedRegion === undefined) delete process.env.AWS_REGION;
  else process.env.AWS_REGION = savedRegion;
});

beforeEach(() => {
  dynamo.reset();
  idempotencyTable.reset();
  ses.reset();
  dynamo.onAnyCommand().resolves({});
  idempotencyTable.onAnyCommand().resolves({});
  ses.onAnyCommand().resolves({ MessageId: 'm-1' });
});

describe('workflow step handlers', () => {
  test.each(STEPS)('%s loads with its environment and refuses input without a valid application id', async (step) => {
    const { handler } = load(step);
    await expect(handler({ applicationId: 'not-an-id', kind: 'confirmation', taskToken: 't', founding: true, talentId: 't', step: 'CreateTalent' })).rejects.toMatchObject({ name: 'ZodError' });
  });

  test('a function without its configuration fails at load, naming what is missing', () => {
    expect(() => load('send-application-email', { ...ENV, REVIEWERS_EMAIL: undefined, ADMIN_URL: 'not a url' })).toThrow(/REVIEWERS_EMAIL.*ADMIN_URL|ADMIN_URL.*REVIEWERS_EMAIL/s);
  });

  test('send-application-email sends through SES from the configured sender', async () => {
    dynamo.on(GetCommand, { Key: { pk: `APP#${ID}`, sk: 'APPLICATION' } }).resolves({ Item: application({ validPhotoCount: 35 }) });
    const { handler } = load('send-application-email', ENV, false);
    expect(await handler({ applicationId: ID, kind: 'confirmation' })).toEqual({ sent: true });
    const input = ses.commandCalls(SendEmailCommand)[0].args[0].input;
    expect(input).toMatchObject({ FromEmailAddress: 'hello@humanly.test', Destination: { ToAddresses: [EMAIL] } });
    expect(input.Content?.Simple?.Body?.Text?.Data).toContain('15-20 business days');
  });

  test('record-email-failure records on the configured table', async () => {
    const { handler } = load('record-email-failure', ENV, false);
    await handler({ applicationId: ID, kind: 'confirmation', error: { Error: 'MessageRejected', Cause: '{}' } });
    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input).toMatchObject({ TableName: 'FoundingApplications', Key: { pk: `APP#${ID}`, sk: 'APPLICATION' } });
  });

  test('record-failure refuses a step the workflow cannot resume at', async () => {
    const { handler } = load('record-failure', ENV, false);
    await expect(handler({ applicationId: ID, step: 'SendAcceptance', error: { Error: 'X' } })).rejects.toMatchObject({ name: 'ZodError' });
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
