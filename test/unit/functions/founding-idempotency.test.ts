import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { FoundingSignupRequest, FoundingUploadRequest } from '../../../events/founding';
import { createUploads } from '../../../functions/founding/routes/create-founding-uploads/service';
import { fingerprintOf, submitApplication } from '../../../functions/founding/routes/founding-talent-signup/service';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { noRateLimit } from '../../../functions/shared/rate-limit';
import { s3Bucket } from '../../../functions/shared/s3';
import { foundingStore } from '../../../functions/founding/store';
import { addressHashOf, pendingPrefix, uploadFolderOf } from '../../../functions/founding/keys';

const EMAIL = 'ada@example.com';
const SESSION = 'a'.repeat(22);
const FOLDER = uploadFolderOf(SESSION);
const FROM = { ip: '203.0.113.9' };

function setup() {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(doc);
  mock.onAnyCommand().resolves({});
  const s3 = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
  return { doc, mock, s3, store: foundingStore(doc, 'FoundingApplications'), once: inMemoryIdempotency() };
}

const signupDeps = (s: ReturnType<typeof setup>) => ({
  store: s.store,
  photos: s3Bucket('photos', s.s3),
  publish: jest.fn(),
  once: s.once,
  limit: noRateLimit,
  send: jest.fn(),
  siteUrl: 'https://site.example',
});

beforeEach(() => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
});

describe('POST /founding-uploads with an Idempotency-Key', () => {
  const request = FoundingUploadRequest.parse({ email: EMAIL, files: [{ name: 'a.jpg', type: 'image/jpeg', size: 1000 }] });

  it('answers a repeat with the first answer and issues nothing new', async () => {
    const s = setup();
    const deps = { store: s.store, photos: s3Bucket('photos', s.s3), once: s.once, limit: noRateLimit };
    const first = await createUploads(deps, request, FROM, 'key-1');
    expect(await createUploads(deps, request, FROM, 'key-1')).toEqual(first);
    expect(s.mock.commandCalls(PutCommand)).toHaveLength(1);
  });

  it('without a key, each request issues its own keys', async () => {
    const s = setup();
    const deps = { store: s.store, photos: s3Bucket('photos', s.s3), once: s.once, limit: noRateLimit };
    const [a, b] = [await createUploads(deps, request, FROM), await createUploads(deps, request, FROM)];
    expect(a.uploads[0].key).not.toBe(b.uploads[0].key);
    expect(s.mock.commandCalls(PutCommand)).toHaveLength(2);
  });

  it('refuses the same key with a different request (422)', async () => {
    const s = setup();
    const deps = { store: s.store, photos: s3Bucket('photos', s.s3), once: s.once, limit: noRateLimit };
    await createUploads(deps, request, FROM, 'key-2');
    await expect(createUploads(deps, { ...request, files: [{ name: 'b.png', type: 'image/png', size: 10 }] }, FROM, 'key-2')).rejects.toMatchObject({ status: 422 });
  });
});

describe('POST /founding-talent-signup with an Idempotency-Key', () => {
  const keys = Array.from({ length: 30 }, (_, i) => `${pendingPrefix(FOLDER)}${i}.jpg`);
  const request = FoundingSignupRequest.parse({
    firstName: 'Ada', email: EMAIL, location: 'London', experience: 'x', age: 30, terms: true,
    uploadedFilesCount: 30, imagePaths: keys, uploadSession: SESSION,
  });

  it('answers a repeat with the first answer without reading or writing the table again', async () => {
    const s = setup();
    s.mock.on(QueryCommand).resolves({
      Items: [
        { pk: `DRAFT#${FOLDER}`, sk: 'SESSION', addressHash: addressHashOf(EMAIL), issued: 30 },
        ...keys.flatMap((key) => [
          { pk: `DRAFT#${FOLDER}`, sk: `ISSUED#${key}`, uploadSession: SESSION, contentType: 'image/jpeg', size: 1000, kind: 'photo' },
          { pk: `DRAFT#${FOLDER}`, sk: `UPLOAD#${key}`, size: 1000, kind: 'photo' },
        ]),
      ],
    });
    const publish = jest.fn(async () => undefined);
    const send = jest.fn(async () => undefined);
    const deps = { ...signupDeps(s), publish, send, newId: () => 'app_abcdefghijklmnopqrst' };

    const first = await submitApplication(deps, request, {}, 'signup-1');
    expect(first).toEqual({ success: true, applicationId: 'app_abcdefghijklmnopqrst', imageCount: 30 });
    const calls = s.mock.calls().length;
    expect(await submitApplication(deps, request, {}, 'signup-1')).toEqual(first);
    expect(s.mock.calls()).toHaveLength(calls);
    expect(s.mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Stored awaiting confirmation: the confirmation link is mailed once, nothing is announced yet.
    expect(send).toHaveBeenCalledTimes(1);
    expect(publish).not.toHaveBeenCalled();
  });

  it('without a key, a repeat of a confirmed application is answered from the per-address lock by its fingerprint', async () => {
    const s = setup();
    const deps = signupDeps(s);
    const answer = { success: true as const, applicationId: 'app_abcdefghijklmnopqrst', imageCount: 30 };
    s.mock.on(GetCommand, { Key: { pk: `EMAIL#${EMAIL}`, sk: 'APPLICATION' } }).resolves({
      Item: { applicationId: answer.applicationId, fingerprint: fingerprintOf(request), submittedAt: '2026-02-01T10:00:00.000Z', response: answer },
    });
    s.mock.on(GetCommand, { Key: { pk: `APP#${answer.applicationId}`, sk: 'APPLICATION' } }).resolves({ Item: { id: answer.applicationId, program: 'founding' } });
    expect(await submitApplication(deps, request)).toEqual(answer);
    expect(s.mock.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
