import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { accountStore } from '../../store';
import { accountIdOf, actorOf } from '../../users';
import { cognitoSignIn } from '../../cognito-sign-in';
import { stateRequestOf } from '../../account-state';
import { disableUser } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), USER_POOL_ID: z.string().min(1) }));

/**
 * `POST /admin/users/{id}/disable` `{reason?}`: the person can no longer sign in, every session
 * ends, and the account's routes refuse it; answers the account's detail. Admins only.
 */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = accountIdOf(event);
  const { reason } = stateRequestOf(event);
  const deps = { accounts: accountStore(documentClient(), config.ACCOUNTS_TABLE), signIn: cognitoSignIn(config.USER_POOL_ID) };
  return json(200, await disableUser(deps, id, reason, actorOf(caller)));
});
