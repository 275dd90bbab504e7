import * as z from 'zod';
import { WaitlistListQuery } from '../../../../events/admin';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { waitlistStore } from '../../store';
import { listWaitlist } from './service';

const config = loadConfig(z.object({ WAITLIST_TABLE: z.string().min(1) }));

/** `GET /admin/waitlist`: one page of signups. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const query = WaitlistListQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  return json(200, await listWaitlist(waitlistStore(documentClient(), config.WAITLIST_TABLE), query.data));
});
