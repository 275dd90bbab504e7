import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { Talent } from '../../../events/talent';

const root = path.resolve(__dirname, '../../..');
const seed = z.array(Talent).parse(JSON.parse(fs.readFileSync(path.join(root, 'infra/seed/talent.json'), 'utf8')));
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

describe('Talent schema', () => {
  const maya = seed[0];
  it('refuses a founding talent on the standard tiers, and the reverse', () => {
    expect(Talent.safeParse({ ...maya, royaltyPlan: 'standard-tiers' }).success).toBe(false);
    expect(Talent.safeParse({ ...maya, founding: false }).success).toBe(false);
  });

  it('refuses ids that are not slugs and unknown fields', () => {
    expect(Talent.safeParse({ ...maya, id: 'Maya Chen' }).success).toBe(false);
    expect(Talent.safeParse({ ...maya, email: 'maya@example.com' }).success).toBe(false);
  });
});
