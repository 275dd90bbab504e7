import * as z from 'zod';
import { AdminStatementQuery } from '../../../../events/royalties';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { royaltyStore } from '../../store';
import { listStatementsAdmin } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /admin/statements?month=&talentId=&payout=&order=&offset=&limit=` (admins): `{items, total}`, the total also in Content-Range. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const parsed = AdminStatementQuery.safeParse(queryOf(event));
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  const query = parsed.data;
  const result = await listStatementsAdmin(royaltyStore(documentClient(), config.GENERATIONS_TABLE), query);
  const last = Math.max(query.offset, query.offset + result.items.length - 1);
  return json(200, result, { 'content-range': `statements ${query.offset}-${last}/${result.total}` });
});
