import { requireGroup } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { ContractChangeConfig, contractChangeDeps } from '../../contract-deps';
import { endExclusiveContract } from './service';

const config = loadConfig(ContractChangeConfig);

/** `DELETE /admin/talent/{id}/exclusive-contract` (admins): ends the contract early; answers the contract as it stands (docs/royalties.md#exclusive-contracts). */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  return json(200, await endExclusiveContract(contractChangeDeps(config), event.pathParameters?.id ?? '', caller.email ?? caller.sub, new Date()));
});
