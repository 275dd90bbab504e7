import * as z from 'zod';
import { AdminGenerationQuery } from '../../../../events/generations';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { generationStore } from '../../store';
import { listGenerationsAdmin } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /admin/generations?status=&talentId=&accountId=&order=&offset=&limit=` (admins): `{items, total}`, the total also in Content-Range. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const parsed = AdminGenerationQuery.safeParse(queryOf(event));
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  const query = parsed.data;
  const result = await listGenerationsAdmin({ generations: generationStore(documentClient(), config.GENERATIONS_TABLE) }, query);
  const last = Math.max(query.offset, query.offset + result.items.length - 1);
  return json(200, result, { 'content-range': `generations ${query.offset}-${last}/${result.total}` });
});
