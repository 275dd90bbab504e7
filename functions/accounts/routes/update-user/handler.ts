import * as z from 'zod';
import { AdminSetPlanRequest } from '../../../../events/accounts';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { accountStore } from '../../store';
import { accountIdOf, actorOf } from '../../users';
import { setUserPlan } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/** `PATCH /admin/users/{id}` `{plan}`: sets a client's plan; answers the account's detail. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = accountIdOf(event);
  const { plan } = parseJsonBody(event, AdminSetPlanRequest);
  const detail = await setUserPlan(accountStore(documentClient(), config.ACCOUNTS_TABLE), id, plan, actorOf(caller));
  log.info('plan set', { accountId: id, plan, by: caller.sub });
  return json(200, detail);
});
