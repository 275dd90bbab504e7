import { adminActorOf, requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { emailSender } from '../../../shared/email';
import { httpHandler, json } from '../../../shared/http';
import { PayoutRunConfig, payoutDeps } from '../../wiring';
import { runNow } from './service';

const config = loadConfig(PayoutRunConfig);
const send = emailSender(config);

/** `POST /admin/payout-runs/{month}` (admins): runs the month's payouts now and answers the run. */
export const handler = httpHandler(async (event, context) => {
  const admin = adminActorOf(requireGroup(event, 'admin'));
  const deps = await payoutDeps(documentClient(), config, send, context);
  return json(200, await runNow(deps, event.pathParameters?.month, admin));
});
