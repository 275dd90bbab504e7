import { ExclusiveContractRequest } from '../../../../events/likeness';
import { requireGroup } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { ContractChangeConfig, contractChangeDeps } from '../../contract-deps';
import { recordExclusiveContract } from './service';

const config = loadConfig(ContractChangeConfig);

/** `POST /admin/talent/{id}/exclusive-contract` (admins): records an exclusive contract; 201 with the contract as it stands (docs/royalties.md#exclusive-contracts). */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const request = parseJsonBody(event, ExclusiveContractRequest);
  return json(201, await recordExclusiveContract(contractChangeDeps(config), event.pathParameters?.id ?? '', request, caller.email ?? caller.sub, new Date()));
});
