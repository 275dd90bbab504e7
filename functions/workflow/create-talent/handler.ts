import * as z from 'zod';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { APPLICATION_ID_PATTERN } from '../../stores/founding-keys';
import { createTalent } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), TALENT_TABLE: z.string().min(1) }));

const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN), founding: z.boolean() });

/** Workflow step CreateTalent: `{ applicationId, founding }` → `{ talentId }`. */
export async function handler(event: unknown) {
  const { applicationId, founding } = Input.parse(event);
  return createTalent({ store: { doc: documentClient(), tableName: config.APPLICATIONS_TABLE }, talentTable: config.TALENT_TABLE }, applicationId, founding);
}
