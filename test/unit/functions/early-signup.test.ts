import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { EarlySignupRequest } from '../../../events/waitlist';
import { signUp } from '../../../functions/api/early-signup/service';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { waitlistStore } from '../../../functions/stores/waitlist';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(doc);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

/** The waitlist table in memory, behind the mocked client: items by key, the counter's condition honoured. */
function table(capacity: number) {
  const items = new Map<string, Record<string, unknown>>();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input) => ({ Item: items.get(input.Key.pk) }));
  dynamo.on(PutCommand).callsFake((input) => {
    items.set(input.Item.pk, input.Item);
    return {};
  });
  dynamo.on(UpdateCommand).callsFake((input) => {
    const item: Record<string, unknown> = items.get(input.Key.pk) ?? { pk: input.Key.pk };
    if (input.Key.pk === 'COUNTER#waitlist') {
      const count = Number(item.count ?? 0);
      if (count >= capacity) throw new ConditionalCheckFailedException({ message: 'full', $metadata: {} });
      items.set(input.Key.pk, { ...item, count: count + 1 });
      return { Attributes: { count: count + 1 } };
    }
    items.set(input.Key.pk, { ...item, welcome: input.ExpressionAttributeValues[':state'] });
    return {};
  });
  return items;
}

const request = EarlySignupRequest.parse({ email: 'ada@example.com', firstName: 'Ada' });

describe('signUp', () => {
  it('takes a place, stores the signup and announces it; a repeat answers the same place', async () => {
    const items = table(200);
    const publish = jest.fn().mockResolvedValue(undefined);
    const deps = { store: waitlistStore(doc, 'w'), capacity: 200, publish, once: inMemoryIdempotency() };
    expect(await signUp(deps, request)).toEqual({ success: true, position: 1, alreadySignedUp: false });
    expect(items.get('SIGNUP#ada@example.com')).toMatchObject({ status: 'active', position: 1, gsi1sk: 1, welcome: 'queued' });
    expect(publish).toHaveBeenCalledWith('Waitlist.SignedUp', expect.objectContaining({ email: 'ada@example.com', position: 1 }));
    expect(await signUp(deps, request)).toEqual({ success: true, position: 1, alreadySignedUp: true });
    // A fresh container (the idempotency record expired): the stored signup answers.
    expect(await signUp({ ...deps, once: inMemoryIdempotency() }, request)).toEqual({ success: true, position: 1, alreadySignedUp: true });
    expect(publish).toHaveBeenCalledTimes(1);
    expect(items.get('COUNTER#waitlist')?.count).toBe(1);
  });

  it('keeps the place when the announcement fails, fails the call, and announces on the retry', async () => {
    const items = table(200);
    const publish = jest.fn().mockRejectedValueOnce(new Error('bus down')).mockResolvedValue(undefined);
    const deps = { store: waitlistStore(doc, 'w'), capacity: 200, publish, once: inMemoryIdempotency() };
    await expect(signUp(deps, request)).rejects.toThrow('bus down');
    expect(items.get('SIGNUP#ada@example.com')).toMatchObject({ position: 1, welcome: 'event-failed' });
    expect(await signUp(deps, request)).toEqual({ success: true, position: 1, alreadySignedUp: true });
    expect(publish).toHaveBeenCalledTimes(2);
    expect(items.get('COUNTER#waitlist')?.count).toBe(1);
  });

  it('answers Waitlist is full once the places are taken, storing nothing', async () => {
    const items = table(0);
    const deps = { store: waitlistStore(doc, 'w'), capacity: 0, publish: jest.fn(), once: inMemoryIdempotency() };
    await expect(signUp(deps, request)).rejects.toMatchObject({ status: 409, message: 'Waitlist is full' });
    expect(items.has('SIGNUP#ada@example.com')).toBe(false);
  });

  it('replays the first answer for the same Idempotency-Key and refuses the key with another body', async () => {
    table(200);
    const publish = jest.fn().mockResolvedValue(undefined);
    const deps = { store: waitlistStore(doc, 'w'), capacity: 200, publish, once: inMemoryIdempotency() };
    const first = await signUp(deps, request, 'key-1');
    expect(await signUp(deps, request, 'key-1')).toEqual(first);
    await expect(signUp(deps, EarlySignupRequest.parse({ email: 'bob@example.com' }), 'key-1')).rejects.toMatchObject({ status: 422 });
    expect(publish).toHaveBeenCalledTimes(1);
  });
});
