import type { AdminMessage, ListResponse, WaitlistEntry } from '../../../events/admin';
import type { Talent } from '../../../events/talent';
import { idToken, postJson, useTwin } from '../../support/twin';
import { joinWaitlist } from '../../support/waitlist';

// The review console's own admin routes against the twin: waitlist, CSV export, talent edits,
// contact messages and the dashboard figures.
jest.setTimeout(180_000);
// A twin of its own: the figures count every signup, message and application.
const twin = useTwin({ own: true });
let token: string;

/** Calls an admin route; `json` is the parsed body, read as the route's answer type `T`. */
async function admin<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${twin().urls.api}/admin${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let json: T | undefined;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as T, text, headers: res.headers };
}

beforeAll(async () => {
  token = await idToken(twin(), twin().admin.email, twin().admin.password);
  const signups = [
    { email: 'ann@fans.example', firstName: 'Ann', signupType: 'startup', newsletter: true },
    { email: 'bob@fans.example', firstName: '=HYPERLINK("http://evil.example","x")', signupType: 'other', newsletter: false },
    { email: 'cy@fans.example', firstName: 'Cy, "the" third', signupType: 'startup', newsletter: true },
  ];
  for (const s of signups) await joinWaitlist(twin(), { ...s, terms: true });
});

describe('waitlist', () => {
  it('lists signups in waitlist order with their choices, and searches and filters them', async () => {
    const all = await admin<ListResponse<WaitlistEntry>>('/waitlist');
    expect(all.status).toBe(200);
    expect(all.json.total).toBe(3);
    expect(all.json.items.map((e) => [e.position, e.email, e.signupType, e.newsletter])).toEqual([
      [1, 'ann@fans.example', 'startup', true],
      [2, 'bob@fans.example', 'other', false],
      [3, 'cy@fans.example', 'startup', true],
    ]);
    expect((await admin<ListResponse<WaitlistEntry>>('/waitlist?q=BOB')).json.items.map((e) => e.position)).toEqual([2]);
    expect((await admin<ListResponse<WaitlistEntry>>('/waitlist?signupType=startup&sort=position&order=DESC')).json.items.map((e) => e.position)).toEqual([3, 1]);
    expect((await admin<ListResponse<WaitlistEntry>>('/waitlist?newsletter=false')).json.total).toBe(1);
    expect((await admin('/waitlist?offset=1&limit=1')).json).toMatchObject({ total: 3, items: [{ position: 2 }] });
    expect((await admin('/waitlist?sort=password')).status).toBe(400);
  });

  it('exports a CSV a spreadsheet opens safely', async () => {
    const res = await admin('/waitlist/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="waitlist-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('"position","email","firstName","signupType","newsletter","signedUpAt"');
    expect(lines[1]).toMatch(/^"1","ann@fans.example","Ann","startup","yes","\d{4}-/);
    expect(lines[2]).toMatch(/^"2","bob@fans.example","'=HYPERLINK\(""http:\/\/evil.example"",""x""\)","other","no",/);
    expect(lines[3]).toMatch(/^"3","cy@fans.example","Cy, ""the"" third","startup","yes",/);
  });
});

describe('talent', () => {
  it('lists hidden and active talent with founding flag and royalty plan', async () => {
    const res = await admin<ListResponse<Talent>>('/talent?limit=100');
    expect(res.status).toBe(200);
    expect(res.json.total).toBeGreaterThan(0);
    expect(res.json.items[0]).toHaveProperty('royaltyPlan');
    expect(res.json.items[0]).toHaveProperty('founding');
  });

  it('edits tagline, tags, featured and status, and the public library follows', async () => {
    const res = await admin('/talent/maya-chen', {
      method: 'PATCH',
      body: { tagline: 'Edited tagline', tags: ['Lifestyle', 'Ceramics'], featured: false, status: 'hidden' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 'maya-chen', tagline: 'Edited tagline', tags: ['Lifestyle', 'Ceramics'], featured: false, status: 'hidden', founding: true });
    expect((await admin<Talent>('/talent/maya-chen')).json.tagline).toBe('Edited tagline');
    expect((await fetch(`${twin().urls.api}/talent/maya-chen`)).status).toBe(404);
    expect((await admin('/talent/maya-chen', { method: 'PATCH', body: { status: 'active' } })).status).toBe(200);
    expect((await fetch(`${twin().urls.api}/talent/maya-chen`)).status).toBe(200);
  });

  it('refuses edits of anything else, invalid values, and unknown talent', async () => {
    expect((await admin('/talent/maya-chen', { method: 'PATCH', body: { royaltyPlan: 'founding-35' } })).status).toBe(400);
    expect((await admin('/talent/maya-chen', { method: 'PATCH', body: { founding: false } })).status).toBe(400);
    expect((await admin('/talent/maya-chen', { method: 'PATCH', body: { tagline: '' } })).status).toBe(400);
    expect((await admin('/talent/maya-chen', { method: 'PATCH', body: { status: 'deleted' } })).status).toBe(400);
    expect((await admin('/talent/maya-chen', { method: 'PATCH', body: {} })).status).toBe(400);
    expect((await admin('/talent/no-such-person', { method: 'PATCH', body: { featured: true } })).status).toBe(404);
  });
});

describe('contact messages', () => {
  it('lists, reads and marks a message handled (and new again)', async () => {
    const sent = await postJson(`${twin().urls.api}/contact`, {
      firstName: 'Mo',
      lastName: 'Ali',
      email: 'mo@mail.example',
      subject: 'Licensing for a charity',
      message: 'Does licensing cover non-profit use?',
      page: '/contact',
    });
    expect(sent.status).toBe(202);
    const list = await admin<ListResponse<AdminMessage>>('/messages?q=charity');
    expect(list.json.total).toBe(1);
    const id = list.json.items[0].id;
    expect(list.json.items[0]).toMatchObject({ status: 'new', subject: 'Licensing for a charity', email: 'mo@mail.example' });
    expect((await admin<AdminMessage>(`/messages/${id}`)).json.message).toBe('Does licensing cover non-profit use?');
    const handled = await admin(`/messages/${id}`, { method: 'PATCH', body: { handled: true } });
    expect(handled.json).toMatchObject({ status: 'handled', handledBy: twin().admin.email });
    expect((await admin<ListResponse<AdminMessage>>('/messages?status=new')).json.total).toBe(0);
    expect((await admin<ListResponse<AdminMessage>>('/messages?status=handled')).json.total).toBe(1);
    expect((await admin<AdminMessage>(`/messages/${id}`, { method: 'PATCH', body: { handled: false } })).json.status).toBe('new');
    expect((await admin(`/messages/${id}`, { method: 'PATCH', body: { status: 'handled' } })).status).toBe(400);
    expect((await admin('/messages/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('dashboard figures', () => {
  it('counts the waitlist, founding spots, applications and failed emails', async () => {
    const res = await admin('/stats');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      waitlist: { count: 3, capacity: 200 },
      founding: { total: 30, taken: 0 },
      applications: { total: 0, waitingForReview: 0 },
      failedEmails: { total: expect.any(Number) },
    });
  });
});
