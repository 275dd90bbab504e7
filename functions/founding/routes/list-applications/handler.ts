import * as z from 'zod';
import { ApplicationListQuery } from '../../../../events/founding';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { foundingStore } from '../../store';
import { listApplications } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

/** `GET /admin/applications` (admins): `{ items, total }`, with the total also in Content-Range. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const parsed = ApplicationListQuery.safeParse(event.queryStringParameters ?? {});
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  const query = parsed.data;
  const result = await listApplications({ store: foundingStore(documentClient(), config.APPLICATIONS_TABLE) }, query);
  const last = Math.max(query.offset, query.offset + result.items.length - 1);
  return json(200, result, { 'content-range': `applications ${query.offset}-${last}/${result.total}` });
});
