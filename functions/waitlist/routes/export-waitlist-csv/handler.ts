import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler } from '../../../shared/http';
import { log } from '../../../shared/log';
import { waitlistStore } from '../../store';
import { exportWaitlistCsv } from './service';

const config = loadConfig(z.object({ WAITLIST_TABLE: z.string().min(1) }));

/** `GET /admin/waitlist/export`: the waitlist as a CSV download. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const text = await exportWaitlistCsv(waitlistStore(documentClient(), config.WAITLIST_TABLE));
  // Who exported personal data, never what.
  log.info('waitlist exported', { by: caller.sub });
  const day = new Date().toISOString().slice(0, 10);
  return csv(`waitlist-${day}.csv`, text);
});
