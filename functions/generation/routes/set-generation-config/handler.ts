import * as z from 'zod';
import { GenerationConfig } from '../../../../events/generations';
import { talentStore } from '../../../catalog';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { setGenerationConfig } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `PUT /admin/talent/{id}/generation-config` (admins) with a GenerationConfig: sets a seeded talent's model and trigger word; answers it. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const body = parseJsonBody(event, GenerationConfig);
  return json(200, await setGenerationConfig(talentStore(documentClient(), config.TALENT_TABLE), event.pathParameters?.id ?? '', body, caller.sub));
});
