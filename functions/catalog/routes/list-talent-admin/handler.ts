import * as z from 'zod';
import { TalentAdminListQuery } from '../../../../events/admin';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { talentStore } from '../../store';
import { listTalentAdmin } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /admin/talent`: the catalog for the console, hidden talent too. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const query = TalentAdminListQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  return json(200, await listTalentAdmin(talentStore(documentClient(), config.TALENT_TABLE), query.data));
});
