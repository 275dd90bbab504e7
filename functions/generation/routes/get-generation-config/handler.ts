import * as z from 'zod';
import { talentStore } from '../../../catalog';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { getGenerationConfig } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /admin/talent/{id}/generation-config` (admins): the model and trigger word a talent is generated with. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  return json(200, await getGenerationConfig(talentStore(documentClient(), config.TALENT_TABLE), event.pathParameters?.id ?? ''));
});
