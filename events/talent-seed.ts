// The catalog's seed file (infra/seed/talent.json, decision 005): each item is a `Talent` plus
// its likeness controls (excluded industries, the generation config of the preview model), the
// same split the talent store makes (functions/catalog/store.ts). Synthesis fails on a bad item.
import * as z from 'zod';
import { LikenessControls } from './generations';
import { Talent } from './talent';

const CONTROL_FIELDS = new Set(Object.keys(LikenessControls.shape));

/** One seed item: the catalog fields must be a valid `Talent`, the rest valid `LikenessControls`. */
const TalentSeedItem = z.record(z.string(), z.unknown()).transform((item, ctx) => {
  const catalog = Object.fromEntries(Object.entries(item).filter(([k]) => !CONTROL_FIELDS.has(k)));
  const controls = Object.fromEntries(Object.entries(item).filter(([k]) => CONTROL_FIELDS.has(k)));
  const talent = Talent.safeParse(catalog);
  const likeness = LikenessControls.strict().safeParse(controls);
  for (const issue of [...(talent.error?.issues ?? []), ...(likeness.error?.issues ?? [])]) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }
  if (!talent.success || !likeness.success) return z.NEVER;
  return { ...talent.data, ...likeness.data };
});

export const TalentSeed = z.array(TalentSeedItem).min(1);
