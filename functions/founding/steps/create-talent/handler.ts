import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { talentStore } from '../../../catalog';
import { loadConfig } from '../../../shared/config';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { createTalent } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), TALENT_TABLE: z.string().min(1) }));

const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN), founding: z.boolean() });

/** Workflow step CreateTalent: `{ applicationId, founding }` → `{ talentId }`. */
export async function handler(event: unknown) {
  const { applicationId, founding } = Input.parse(event);
  const doc = documentClient();
  return createTalent({ store: foundingStore(doc, config.APPLICATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE) }, applicationId, founding);
}
