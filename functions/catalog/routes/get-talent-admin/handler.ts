import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { talentStore } from '../../store';
import { talentForAdmin } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /admin/talent/{id}`: one talent, whatever its status. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  return json(200, await talentForAdmin(talentStore(documentClient(), config.TALENT_TABLE), event.pathParameters?.id ?? ''));
});
