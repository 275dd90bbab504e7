// The review API on the twin: listing with filters, details, and decisions that are refused.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, idToken, useTwin } from '../../support/twin';
import { applicantEmail, applicationOf, asJpegFiles, jpegs, signupConfirmed, signupPayload, uploadAll } from './support';
import { eventually } from '../../support/eventually';

jest.setTimeout(180_000);
const twin = useTwin();

const admin = async (path: string, init: RequestInit = {}) => {
  const token = await idToken(twin(), twin().admin.email, twin().admin.password);
  return fetch(`${twin().urls.api}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
};
const decide = (id: string, body: unknown) => admin(`/admin/applications/${id}/decision`, { method: 'POST', body: JSON.stringify(body) });

describe('review API', () => {
  it('rejects an application: status, rejection email, and no second decision', async () => {
    const email = applicantEmail('reject');
    const { uploadSession, keys } = await uploadAll(twin(), email, asJpegFiles(await jpegs(30, 300)));
    const res = await signupConfirmed(twin(), signupPayload(email, uploadSession, keys, { firstName: 'Rosa', lastName: 'Zed' }));
    const id = res.json.applicationId;
    await eventually(async () => (await applicationOf(twin(), email))?.taskToken, { timeoutMs: 90_000, what: 'review wait' });

    expect((await decide(id, { decision: 'maybe' })).status).toBe(400);
    const rejected = await decide(id, { decision: 'reject', note: 'Photos too dark' });
    expect(rejected.status).toBe(202);
    expect(await rejected.json()).toMatchObject({ id, status: 'rejected', decision: { decision: 'reject', note: 'Photos too dark', decidedBy: twin().admin.email } });
    const mail = await eventually(async () => (await twin().emails()).find((m) => m.to.includes(email) && !/received/.test(m.subject)), { what: 'rejection email' });
    expect(mail.subject).not.toMatch(/welcome/i);
    expect((await decide(id, { decision: 'accept' })).status).toBe(409);

    const detail = await (await admin(`/admin/applications/${id}`)).json();
    expect(detail.status).toBe('rejected');
    expect(detail.history.map((h: { event: string }) => h.event)).toEqual(expect.arrayContaining(['submitted', 'decided: reject']));
    expect(detail.history.find((h: { event: string }) => h.event === 'decided: reject')).toMatchObject({ by: twin().admin.email, note: 'Photos too dark' });
  });

  it('refuses a decision on an application not waiting for review, and on an unknown id', async () => {
    const id = 'app_notwaitingnotwaiting';
    await documentClient(twin()).send(
      new PutCommand({
        TableName: twin().physicalName('FoundingApplicationsTable'),
        Item: { pk: `APP#${id}`, sk: 'APPLICATION', id, status: 'validating', program: 'founding', email: 'w@example.com', firstName: 'W', submittedAt: new Date().toISOString() },
      }),
    );
    const res = await decide(id, { decision: 'accept' });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe('This application is not waiting for review.');
    expect((await decide('app_unknownunknownunknow', { decision: 'accept' })).status).toBe(404);
    expect((await admin('/admin/applications/app_unknownunknownunknow')).status).toBe(404);
  });

  it('lists applications with filters, search, sorting and paging', async () => {
    const doc = documentClient(twin());
    const table = twin().physicalName('FoundingApplicationsTable');
    const seed = [
      { id: 'app_listaaaaaaaaaaaaaaaa', firstName: 'Zoe', lastName: 'Adams', status: 'pending_review', at: '2026-01-05T10:00:00.000Z', excludedIndustries: ['alcohol'] },
      { id: 'app_listbbbbbbbbbbbbbbbb', firstName: 'Yann', lastName: 'Brown', status: 'invalid', at: '2026-01-06T10:00:00.000Z', excludedIndustries: [] },
      { id: 'app_listcccccccccccccccc', firstName: 'Xia', lastName: 'Chen', status: 'pending_review', at: '2026-01-07T10:00:00.000Z', excludedIndustries: ['religion'] },
    ];
    for (const a of seed) {
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: {
            pk: `APP#${a.id}`, sk: 'APPLICATION', id: a.id, program: 'founding', status: a.status, firstName: a.firstName, lastName: a.lastName,
            email: `${a.firstName.toLowerCase()}@list.example`, location: 'Oslo', age: 30, excludedIndustries: a.excludedIndustries,
            submittedAt: a.at, imageCount: 30, gsi1pk: 'APPLICATIONS', gsi1sk: `${a.at}#${a.id}`, taskToken: 'secret',
          },
        }),
      );
    }
    const list = async (query: string) => (await (await admin(`/admin/applications?${query}`)).json()) as { items: Array<{ id: string }>; total: number };
    const ids = (r: { items: Array<{ id: string }> }) => r.items.map((i) => i.id);
    const window = 'from=2026-01-01&to=2026-01-31';
    expect(ids(await list(`${window}&status=pending_review`))).toEqual(['app_listcccccccccccccccc', 'app_listaaaaaaaaaaaaaaaa']);
    expect(ids(await list(`${window}&q=BROWN`))).toEqual(['app_listbbbbbbbbbbbbbbbb']);
    expect(ids(await list(`${window}&excludes=religion`))).toEqual(['app_listcccccccccccccccc']);
    expect(ids(await list(`${window}&sort=name&order=ASC`))).toEqual(['app_listaaaaaaaaaaaaaaaa', 'app_listbbbbbbbbbbbbbbbb', 'app_listcccccccccccccccc']);
    const page = await list(`${window}&sort=submittedAt&order=ASC&offset=1&limit=1`);
    expect(page).toMatchObject({ total: 3, items: [{ id: 'app_listbbbbbbbbbbbbbbbb' }] });
    expect(JSON.stringify(page)).not.toContain('secret');
    expect((await admin('/admin/applications?status=lost')).status).toBe(400);
  });
});
