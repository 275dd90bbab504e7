import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TalentListResponse, TalentResponse } from '../../../events/talent';
import { documentClient, useTwin } from '../../support/twin';

const twin = useTwin();
const seed = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../infra/seed/talent.json'), 'utf8'));
const getJson = async (p: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${twin().urls.api}${p}`, { headers });
  return { status: res.status, headers: res.headers, json: (await res.json()) as unknown };
};

describe('talent catalog through the API', () => {
  it('lists the seeded talent, most generated first, without internal fields', async () => {
    const res = await getJson('/talent');
    expect(res.status).toBe(200);
    const body = TalentListResponse.parse(res.json);
    // Other files on the shared twin list talent of their own for a while (a contract's term
    // ending, a removal's notice): the seeded ones come first, in order, and every other one is
    // a test's own (never a seeded id twice).
    const seededIds = ['sofia-alvarez', 'maya-chen', 'jordan-rivers'];
    expect(body.talent.slice(0, 3).map((t) => t.id)).toEqual(seededIds);
    expect(body.talent.slice(3).filter((t) => seededIds.includes(t.id))).toEqual([]);
    // Counts start at the seed's and grow with every image delivered (other files generate on the shared twin).
    const seeded = { 'sofia-alvarez': 15234, 'maya-chen': 12847, 'jordan-rivers': 9563 } as Record<string, number>;
    const seededTalent = body.talent.slice(0, 3);
    for (const t of seededTalent) expect(t.generationCount).toBeGreaterThanOrEqual(seeded[t.id]);
    expect(seededTalent.every((t) => t.featured)).toBe(true);
    expect((res.json as TalentListResponse).talent[0]).not.toHaveProperty('status');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('serves the same data in the table as the seed file the stack deploys', async () => {
    const { json } = await getJson('/talent/maya-chen');
    // The public answer leaves out the status and the likeness controls the seed also holds.
    const { status: _status, excludedIndustries: _x, generation: _g, ...expected } = seed.find((t: { id: string }) => t.id === 'maya-chen');
    expect(json).toEqual({ talent: { ...expected, generationCount: expect.any(Number) } });
    expect(TalentResponse.parse(json).talent.generationCount).toBeGreaterThanOrEqual(expected.generationCount);
    expect(TalentResponse.parse(json).talent.samples.length).toBeGreaterThanOrEqual(3);
  });

  it.each([
    ['an unknown id', '/talent/nobody-here'],
    ['an id that is not a slug', '/talent/Maya_Chen'],
    ['an over-long id', `/talent/${'a'.repeat(65)}`],
  ])('answers 404 Model not found for %s', async (_name, p) => {
    const res = await getJson(p);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'Model not found' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('hides a hidden talent from the list and the profile', async () => {
    const doc = documentClient(twin());
    const TableName = twin().physicalName('CatalogTalentTable');
    const hidden = { ...seed[0], id: 'hidden-talent', name: 'Hidden Talent', status: 'hidden' };
    await doc.send(new PutCommand({ TableName, Item: hidden }));
    try {
      expect((await getJson('/talent/hidden-talent')).status).toBe(404);
      const list = await getJson('/talent');
      expect((list.json as TalentListResponse).talent.map((t) => t.id)).not.toContain('hidden-talent');
      await doc.send(new PutCommand({ TableName, Item: { ...hidden, status: 'active' } }));
      expect((await getJson('/talent/hidden-talent')).status).toBe(200);
    } finally {
      await doc.send(new DeleteCommand({ TableName, Key: { id: 'hidden-talent' } }));
    }
  });

  it('lets the site read it cross-origin', async () => {
    const res = await getJson('/talent', { origin: twin().urls.web });
    expect(res.headers.get('access-control-allow-origin')).toBe(twin().urls.web);
  });
});
