import { adminActorOf, requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { emailSender } from '../../../shared/email';
import { httpHandler, json } from '../../../shared/http';
import { PayoutRunConfig, payoutDeps } from '../../wiring';
import { retry } from './service';

const config = loadConfig(PayoutRunConfig);
const send = emailSender(config);

/** `POST /admin/payouts/{statementId}/retry` (admins): a failed payout's transfer once more. */
export const handler = httpHandler(async (event, context) => {
  const admin = adminActorOf(requireGroup(event, 'admin'));
  const deps = await payoutDeps(documentClient(), config, send, context);
  return json(200, await retry(deps, event.pathParameters?.statementId, admin));
});
