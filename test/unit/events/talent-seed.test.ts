import * as fs from 'node:fs';
import * as path from 'node:path';
import { excludedIndustryOf } from '../../../events/generation-values';
import { Talent } from '../../../events/talent';
import { TalentSeed } from '../../../events/talent-seed';

const root = path.resolve(__dirname, '../../..');
const raw = JSON.parse(fs.readFileSync(path.join(root, 'infra/seed/talent.json'), 'utf8'));
const seed = TalentSeed.parse(raw);
const SPEC_TAGS = ['Lifestyle', 'Authentic', 'Creative', 'Portrait', 'Diversity', 'Professional', 'Fashion', 'Technology', 'Innovation'];

describe('the talent seed (docs/product.md#talent-library)', () => {
  it('holds the three featured sample talent with the spec generation counts', () => {
    expect(seed.map((t) => [t.id, t.name, t.generationCount, t.featured, t.status])).toEqual([
      ['maya-chen', 'Maya Chen', 12847, true, 'active'],
      ['jordan-rivers', 'Jordan Rivers', 9563, true, 'active'],
      ['sofia-alvarez', 'Sofia Alvarez', 15234, true, 'active'],
    ]);
  });

  it('tags each talent with 3-4 spec tags, overlapping, and uses every spec tag', () => {
    for (const t of seed) {
      expect(t.tags.length).toBeGreaterThanOrEqual(3);
      expect(t.tags.length).toBeLessThanOrEqual(4);
      for (const tag of t.tags) expect(SPEC_TAGS).toContain(tag);
    }
    const all = seed.flatMap((t) => t.tags);
    expect(new Set(all)).toEqual(new Set(SPEC_TAGS));
    expect(all.length).toBeGreaterThan(SPEC_TAGS.length); // some tags are shared
  });

  it('points at illustrations that exist in the site and stay small', () => {
    for (const t of seed) {
      expect(t.image).toBe(`/talent/${t.id}.svg`);
      expect(t.samples.length).toBeGreaterThanOrEqual(3);
      t.samples.forEach((s, i) => expect(s).toBe(`/talent/${t.id}-sample-${i + 1}.svg`));
      for (const file of [t.image, ...t.samples]) {
        const full = path.join(root, 'web/public', file);
        expect(fs.existsSync(full)).toBe(true);
        expect(fs.statSync(full).size).toBeLessThan(6 * 1024);
        expect(fs.readFileSync(full, 'utf8')).not.toMatch(/<image|<script|href="http/);
      }
    }
  });
});

describe("the seed's likeness controls (docs/generation.md)", () => {
  it('gives each talent a preview model of the Replicate emulator and a one-word trigger', () => {
    expect(seed.map((t) => [t.id, t.generation])).toEqual([
      ['maya-chen', { model: 'humanly-preview/maya-chen', triggerWord: 'MAYA' }],
      ['jordan-rivers', { model: 'humanly-preview/jordan-rivers', triggerWord: 'JORDAN' }],
      ['sofia-alvarez', { model: 'humanly-preview/sofia-alvarez', triggerWord: 'SOFIA' }],
    ]);
  });

  it('excludes the industries each bio states, and a prompt of that industry falls within them', () => {
    const excluded = Object.fromEntries(seed.map((t) => [t.id, t.excludedIndustries]));
    expect(excluded).toEqual({ 'maya-chen': ['politics', 'alcohol'], 'jordan-rivers': ['religion'], 'sofia-alvarez': ['alcohol'] });
    const words = { politics: 'political', religion: 'religious', alcohol: 'alcohol' } as const;
    for (const t of seed) {
      for (const industry of t.excludedIndustries ?? []) {
        expect(t.bio).toMatch(new RegExp(`excluded [^.]*\\b${words[industry]}\\b`));
      }
      expect(excludedIndustryOf('a glass of red wine at a vineyard', t.excludedIndustries ?? [])).toBe(t.excludedIndustries?.includes('alcohol') ? 'alcohol' : undefined);
    }
  });

  it('refuses bad controls and unknown fields, naming the item and the field', () => {
    const withItem = (over: Record<string, unknown>) => [{ ...raw[0], ...over }];
    const problems = (data: unknown) => TalentSeed.safeParse(data).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(problems(withItem({ generation: { model: 'humanly-preview/maya-chen' } }))).toEqual([expect.stringMatching(/^0\.generation\.triggerWord: /)]);
    expect(problems(withItem({ excludedIndustries: ['tobacco'] }))).toEqual([expect.stringMatching(/^0\.excludedIndustries\.0: /)]);
    expect(problems(withItem({ email: 'maya@example.com' }))).toEqual([expect.stringMatching(/^0: .*email/)]);
    expect(problems([])).toHaveLength(1);
  });
});

describe('Talent schema', () => {
  const maya = Talent.parse(Object.fromEntries(Object.entries(raw[0]).filter(([k]) => k !== 'excludedIndustries' && k !== 'generation')));
  it('refuses a founding talent on the standard tiers, and the reverse', () => {
    expect(Talent.safeParse({ ...maya, royaltyPlan: 'standard-tiers' }).success).toBe(false);
    expect(Talent.safeParse({ ...maya, founding: false }).success).toBe(false);
  });

  it('refuses ids that are not slugs and unknown fields', () => {
    expect(Talent.safeParse({ ...maya, id: 'Maya Chen' }).success).toBe(false);
    expect(Talent.safeParse({ ...maya, email: 'maya@example.com' }).success).toBe(false);
  });
});
