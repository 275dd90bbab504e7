import { ManualPayoutRequest } from '../../../../events/payouts';
import { adminActorOf, requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { emailSender } from '../../../shared/email';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { PayoutRunConfig, payoutDeps } from '../../wiring';
import { manual, retry, runNow } from './service';

const config = loadConfig(PayoutRunConfig);
const send = emailSender(config);

/** The console's payout actions (admins only): run a month now, retry a failed payout, record one paid outside Stripe. */
export const handler = httpHandler(async (event) => {
  const admin = adminActorOf(requireGroup(event, 'admin'));
  const path = event.rawPath ?? '';
  if (path.endsWith('/manual')) {
    const request = parseJsonBody(event, ManualPayoutRequest);
    const deps = await payoutDeps(documentClient(), config, send);
    return json(200, await manual(deps, event.pathParameters?.statementId, request, admin));
  }
  const deps = await payoutDeps(documentClient(), config, send);
  if (path.endsWith('/retry')) return json(200, await retry(deps, event.pathParameters?.statementId, admin));
  return json(200, await runNow(deps, event.pathParameters?.month, admin));
});
