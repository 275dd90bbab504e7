import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { log } from '../../../shared/log';
import { accountStore } from '../../store';
import { cognitoSignIn } from '../../cognito-sign-in';
import { setAccountState, stateRequestOf } from '../../account-state';
import { accountIdOf, actorOf } from '../../users';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), USER_POOL_ID: z.string().min(1) }));

/** `POST /admin/users/{id}/enable` `{reason?}`: the person can sign in again; answers the account's detail. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = accountIdOf(event);
  const { reason } = stateRequestOf(event);
  const detail = await setAccountState(
    { accounts: accountStore(documentClient(), config.ACCOUNTS_TABLE), signIn: cognitoSignIn(config.USER_POOL_ID) },
    id,
    false,
    reason,
    actorOf(caller),
  );
  log.info('account enabled', { accountId: id, by: caller.sub });
  return json(200, detail);
});
