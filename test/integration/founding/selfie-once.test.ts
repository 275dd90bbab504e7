// The verified selfie is recorded once per Stripe session on DynamoDB Local (functions/founding/store.ts):
// when the check of one selfie runs twice at once (its trigger fired twice), one run records it and
// its failed check, the other finds it recorded and adds nothing.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { foundingStore } from '../../../functions/founding/store';
import { foundingKeys } from '../../../functions/founding/keys';
import { fileMarker } from '../../support/marker';
import { documentClient, useTwin } from '../../support/twin';

jest.setTimeout(120_000);
const twin = useTwin();
const run = fileMarker('so');

const table = () => twin().physicalName('FoundingApplicationsTable');

async function applicationWithConsent(id: string): Promise<void> {
  await documentClient(twin()).send(
    new PutCommand({ TableName: table(), Item: { ...foundingKeys.application(id), id, status: 'submitted', identity: { faceConsent: 'given' } } }),
  );
}

const stored = async (id: string) =>
  (await documentClient(twin()).send(new GetCommand({ TableName: table(), Key: foundingKeys.application(id), ConsistentRead: true }))).Item!;

it('records the same session selfie and its failed check once when two checks race', async () => {
  const id = `${run}-race`;
  await applicationWithConsent(id);
  const store = foundingStore(documentClient(twin()), table());
  const selfie = { state: 'copy' as const, key: `applications/${id}/identity/s1.jpg`, sessionId: 'vs_race_1', takenAt: '2026-11-20T10:00:00.000Z' };
  const failed = { check: 'selfie-copy' as const, at: '2026-11-20T10:01:00.000Z' };
  const outcomes = await Promise.all([store.recordVerifiedSelfie(id, selfie, { failed }), store.recordVerifiedSelfie(id, selfie, { failed })]);
  expect(outcomes.sort()).toEqual([false, true]);
  expect((await stored(id)).failedChecks).toEqual([failed]);
  // Run again later, it is still recorded once.
  expect(await store.recordVerifiedSelfie(id, selfie, { failed })).toBe(false);
  expect((await stored(id)).failedChecks).toHaveLength(1);
});

it("records a later session's selfie over an earlier one, and not an earlier one over a later", async () => {
  const id = `${run}-order`;
  await applicationWithConsent(id);
  const store = foundingStore(documentClient(twin()), table());
  const first = { state: 'match' as const, sessionId: 'vs_order_1', takenAt: '2026-11-20T10:00:00.000Z' };
  const second = { state: 'no-match' as const, sessionId: 'vs_order_2', takenAt: '2026-11-21T10:00:00.000Z' };
  expect(await store.recordVerifiedSelfie(id, first)).toBe(true);
  expect(await store.recordVerifiedSelfie(id, second, { failed: { check: 'selfie-no-match', at: second.takenAt } })).toBe(true);
  expect(await store.recordVerifiedSelfie(id, { ...first, sessionId: 'vs_order_0', takenAt: '2026-11-19T10:00:00.000Z' })).toBe(false);
  expect((await stored(id)).identity.selfie).toMatchObject({ sessionId: 'vs_order_2', state: 'no-match' });
});

it('records nothing once the face data consent is withdrawn', async () => {
  const id = `${run}-withdrawn`;
  await documentClient(twin()).send(new PutCommand({ TableName: table(), Item: { ...foundingKeys.application(id), id, identity: { faceConsent: 'withdrawn' } } }));
  const store = foundingStore(documentClient(twin()), table());
  expect(await store.recordVerifiedSelfie(id, { state: 'match', sessionId: 'vs_w_1', takenAt: '2026-11-20T10:00:00.000Z' })).toBe(false);
  expect((await stored(id)).identity.selfie).toBeUndefined();
});
