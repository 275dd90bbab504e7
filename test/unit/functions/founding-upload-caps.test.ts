import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { FoundingUploadRequest, MAX_UPLOADS_PER_IP_PER_HOUR, MAX_UPLOADS_PER_SESSION, UPLOAD_LIMIT_MESSAGES } from '../../../events/founding';
import { createUploads } from '../../../functions/founding/routes/create-founding-uploads/service';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { inMemoryRateLimiter } from '../../../functions/shared/rate-limit';
import { s3Bucket } from '../../../functions/shared/s3';
import { foundingStore } from '../../../functions/founding/store';
import { addressHashOf } from '../../../functions/founding/keys';

const conditionFailed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
const request = (email: string, n: number, uploadSession?: string) =>
  FoundingUploadRequest.parse({ email, files: Array.from({ length: n }, (_, i) => ({ name: `p${i}.jpg`, type: 'image/jpeg', size: 1000 })), ...(uploadSession ? { uploadSession } : {}) });

function setup() {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(doc);
  mock.onAnyCommand().resolves({});
  const s3 = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
  const deps = { store: foundingStore(doc, 'FoundingApplications'), photos: s3Bucket('photos', s3), once: inMemoryIdempotency(), limit: inMemoryRateLimiter() };
  return { mock, deps };
}

beforeEach(() => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
});

describe('upload URL caps (decision 013)', () => {
  it("reserves a request's keys on the session's counter in one conditional update, before issuing any", async () => {
    const { mock, deps } = setup();
    // An address whose name cannot occur in the key's hexadecimal session id by chance.
    const answer = await createUploads(deps, request('zoe@example.com', 3), { ip: '203.0.113.1' });
    const [update] = mock.commandCalls(UpdateCommand).map((c) => c.args[0].input);
    expect(update.Key).toEqual({ pk: expect.stringMatching(/^DRAFT#[0-9a-f]{32}$/), sk: 'SESSION' });
    expect(update.ConditionExpression).toContain('issued <= :room');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':count': 3, ':room': MAX_UPLOADS_PER_SESSION - 3, ':address': addressHashOf('zoe@example.com') });
    expect(mock.commandCalls(PutCommand)).toHaveLength(3);
    expect(answer.uploads.every((u) => u.key.startsWith(`pending/${update.Key!.pk.slice('DRAFT#'.length)}/`) && !u.key.includes('zoe'))).toBe(true);
  });

  it('refuses a full session with 429 and a session of another address with 400, issuing nothing', async () => {
    const { mock, deps } = setup();
    mock.on(UpdateCommand).rejects(conditionFailed());
    mock.on(GetCommand).resolves({ Item: { addressHash: addressHashOf('ada@example.com'), issued: MAX_UPLOADS_PER_SESSION } });
    const session = 'A'.repeat(22);
    await expect(createUploads(deps, request('ada@example.com', 1, session), { ip: '203.0.113.2' })).rejects.toMatchObject({ status: 429, message: UPLOAD_LIMIT_MESSAGES.session });
    await expect(createUploads(deps, request('eve@example.com', 1, session), { ip: '203.0.113.2' })).rejects.toMatchObject({ status: 400, message: UPLOAD_LIMIT_MESSAGES.otherAddress });
    expect(mock.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('counts every URL against the network and the address, and refuses past either', async () => {
    const { deps } = setup();
    for (let i = 0; i < MAX_UPLOADS_PER_IP_PER_HOUR / 80; i++) await createUploads(deps, request(`a${i}@example.com`, 80), { ip: '203.0.113.3' });
    await expect(createUploads(deps, request('late@example.com', 1), { ip: '203.0.113.3' })).rejects.toMatchObject({ status: 429, message: UPLOAD_LIMIT_MESSAGES.ip });
    await createUploads(deps, request('same@example.com', 80), { ip: '203.0.113.4' });
    await createUploads(deps, request('same@example.com', 80), { ip: '203.0.113.5' });
    await expect(createUploads(deps, request('same@example.com', 80), { ip: '203.0.113.6' })).rejects.toMatchObject({ status: 429, message: UPLOAD_LIMIT_MESSAGES.address });
  });
});
