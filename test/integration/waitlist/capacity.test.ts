import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { confirmationTokens, postJsonFrom } from '../../support/waitlist';
import { documentClient, itemsWithPrefix, useTwin } from '../../support/twin';

// A twin of its own with a small waitlist: the test fills it. (The twin runs each function in
// one worker, so a few dozen simultaneous confirmations are what it can race within the time-out.)
const CAPACITY = 20;
const PEOPLE = 30;
const twin = useTwin({ context: { waitlistCapacity: CAPACITY } });

// Each person on a network of their own, ten to an address, so no per-IP limit is reached.
const ipOf = (i: number) => `127.0.${100 + Math.floor(i / 10)}.${(i % 10) + 1}`;

describe('waitlist capacity', () => {
  it(`gives exactly ${CAPACITY} of ${PEOPLE} simultaneous confirmations a place and tells the others it is full`, async () => {
    const api = twin().urls.api;
    const emails = Array.from({ length: PEOPLE }, (_, i) => `creator${i}@rush.example`);
    const asked = [];
    for (let i = 0; i < PEOPLE; i += 10) asked.push(...(await Promise.all(emails.slice(i, i + 10).map((email, j) => postJsonFrom(ipOf(i + j), `${api}/early-signup`, { email })))));
    expect(asked.filter((r) => r.status !== 200).map((r) => [r.status, r.json])).toEqual([]);
    // Asking takes no place.
    const count = async () =>
      (await documentClient(twin()).send(new GetCommand({ TableName: twin().physicalName('WaitlistTable'), Key: { pk: 'COUNTER#waitlist' }, ConsistentRead: true }))).Item
        ?.count;
    expect(await count()).toBeUndefined();

    const tokens = await Promise.all(emails.map(async (email) => (await confirmationTokens(twin(), email))[0]));
    const results = await Promise.all(tokens.map((token, i) => postJsonFrom(ipOf(i), `${api}/confirm-waitlist`, { token })));
    const ok = results.filter((r) => r.status === 200);
    const full = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(CAPACITY);
    expect(full).toHaveLength(PEOPLE - CAPACITY);
    for (const r of full) expect(r.json.error).toBe('Waitlist is full');

    const positions = ok.map((r) => r.json.position).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: CAPACITY }, (_, i) => i + 1));

    const items = await itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#');
    expect(items.filter((i) => i.status === 'active')).toHaveLength(CAPACITY);
    expect(items.filter((i) => i.status === 'pending')).toHaveLength(PEOPLE - CAPACITY);
    expect(await count()).toBe(CAPACITY);

    await twin().idle();
    const welcomes = (await twin().emails()).filter((m) => m.to.some((t) => t.endsWith('@rush.example')) && !m.subject.startsWith('Confirm'));
    expect(welcomes).toHaveLength(CAPACITY);

    // When the list is full, every signup is told so, whether on the list or not: nobody learns who holds a place.
    const member = emails[results.findIndex((r) => r.status === 200)];
    const outsider = emails[results.findIndex((r) => r.status === 409)];
    for (const email of [member, outsider]) {
      const again = await postJsonFrom('127.0.99.1', `${api}/early-signup`, { email });
      expect(again.status).toBe(409);
      expect(again.json.error).toBe('Waitlist is full');
    }
  }, 180_000);
});
