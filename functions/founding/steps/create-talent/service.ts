import { createHash } from 'node:crypto';
import { Talent } from '../../../../events/talent';
import { TALENT_ID_MAX_LENGTH } from '../../../../events/talent-values';
import type { FoundingStore } from '../../store';
import type { TalentStore } from '../../../catalog';
import { log } from '../../../shared/log';

export interface CreateTalentDeps {
  store: FoundingStore;
  /** The catalog. */
  talent: TalentStore;
}

/** Where a new talent's profile image points until they upload their own. */
export const NEW_TALENT_IMAGE = '/talent/new-talent.svg';

/** "Zoë O'Brien" → "zoe-obrien"; the application id's hash keeps it unique and the same on retries. */
export function talentIdFor(firstName: string, lastName: string | undefined, applicationId: string): string {
  const slug = `${firstName} ${lastName ?? ''}`
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const suffix = createHash('sha256').update(applicationId).digest('hex').slice(0, 6);
  const base = (slug || 'talent').slice(0, TALENT_ID_MAX_LENGTH - suffix.length - 1).replace(/-+$/, '');
  return `${base}-${suffix}`;
}

/**
 * Workflow step CreateTalent: the accepted applicant's catalog entry, hidden until their
 * profile is ready, on the founding-35 or standard-tiers plan. Idempotent: the id derives from
 * the application, the put is conditional, and the application remembers the talent id.
 */
export async function createTalent(deps: CreateTalentDeps, applicationId: string, founding: boolean): Promise<{ talentId: string }> {
  const app = await deps.store.getApplication(applicationId);
  if (app.talentId) return { talentId: app.talentId };
  const id = talentIdFor(app.firstName, app.lastName, applicationId);
  const talent = Talent.parse({
    id,
    name: `${app.firstName} ${app.lastName ?? ''}`.replace(/\s+/g, ' ').trim().slice(0, 100),
    image: NEW_TALENT_IMAGE,
    tagline: founding ? 'Founding talent' : 'Talent',
    bio: 'Profile coming soon.',
    generationCount: 0,
    featured: false,
    tags: [],
    samples: [],
    founding,
    royaltyPlan: founding ? 'founding-35' : 'standard-tiers',
    status: 'hidden',
  });
  // A taken id is our own earlier run's (the id derives from the application): keep what is there.
  // The applicant's excluded industries go with the likeness from the start (generation checks them);
  // the application's id names where the talent's email is (likeness notices).
  if (!(await deps.talent.create(talent, app.excludedIndustries ?? [], { applicationId })) && !(await deps.talent.get(id))) throw new Error(`talent id ${id} is taken and cannot be read`);
  await deps.store.recordTalentCreated(applicationId, id);
  await deps.store.addHistory(applicationId, 'talent created', { note: id });
  log.info('talent created', { applicationId, talentId: id, founding });
  return { talentId: id };
}
