import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, itemsWithPrefix, postJson, useTwin } from '../../support/twin';

// A twin of its own: the test fills the waitlist.
const twin = useTwin({ own: true });

describe('waitlist capacity', () => {
  it('stores exactly 200 of 250 simultaneous signups and tells the other 50 it is full', async () => {
    const api = twin().urls.api;
    const emails = Array.from({ length: 250 }, (_, i) => `creator${i}@rush.example`);
    const results = await Promise.all(emails.map((email) => postJson(`${api}/early-signup`, { email })));
    const ok = results.filter((r) => r.status === 200);
    const full = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(200);
    expect(full).toHaveLength(50);
    for (const r of full) expect(r.json.error).toBe('Waitlist is full');

    const positions = ok.map((r) => r.json.position).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));

    const items = await itemsWithPrefix(twin(), 'WaitlistTable', 'SIGNUP#');
    expect(items).toHaveLength(200);
    expect(items.every((i) => i.status === 'active')).toBe(true);
    const counter = await documentClient(twin()).send(
      new GetCommand({ TableName: twin().physicalName('WaitlistTable'), Key: { pk: 'COUNTER#waitlist' }, ConsistentRead: true }),
    );
    expect(counter.Item?.count).toBe(200);

    await twin().idle();
    const welcomes = (await twin().emails()).filter((m) => m.to.some((t) => t.endsWith('@rush.example')));
    expect(welcomes).toHaveLength(200);

    // A person already on the list still gets their place back when the list is full.
    const member = emails[results.findIndex((r) => r.status === 200)];
    const again = await postJson(`${api}/early-signup`, { email: member });
    expect(again.status).toBe(200);
    expect(again.json.alreadySignedUp).toBe(true);
    const outsider = emails[results.findIndex((r) => r.status === 409)];
    expect((await postJson(`${api}/early-signup`, { email: outsider })).json.error).toBe('Waitlist is full');
  }, 120_000);
});
