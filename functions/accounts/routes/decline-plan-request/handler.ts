import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { log } from '../../../shared/log';
import { accountStore } from '../../store';
import { accountIdOf, actorOf } from '../../users';
import { declinePlanRequest } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/** `POST /admin/users/{id}/plan-request/decline`: declines a client's pending plan request; answers the detail. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = accountIdOf(event);
  const detail = await declinePlanRequest(accountStore(documentClient(), config.ACCOUNTS_TABLE), id, actorOf(caller));
  log.info('plan request declined', { accountId: id, by: caller.sub });
  return json(200, detail);
});
