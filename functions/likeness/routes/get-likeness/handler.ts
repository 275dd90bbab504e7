import { AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { getLikenessStatus } from './service';
import { likenessControlDeps } from '../../route-deps';

const deps = likenessControlDeps(loadConfig(AccountTables));

/** `GET /me/likeness` (accepted talent): the likeness's state, pause, removal and contract. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await getLikenessStatus(deps, caller));
});
