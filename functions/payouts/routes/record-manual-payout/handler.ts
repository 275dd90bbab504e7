import { ManualPayoutRequest } from '../../../../events/payouts';
import { adminActorOf, requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { emailSender } from '../../../shared/email';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { PayoutRunConfig, payoutDeps } from '../../wiring';
import { manual } from './service';

const config = loadConfig(PayoutRunConfig);
const send = emailSender(config);

/** `POST /admin/payouts/{statementId}/manual` (admins): records a payout made outside Stripe. */
export const handler = httpHandler(async (event) => {
  const admin = adminActorOf(requireGroup(event, 'admin'));
  const request = parseJsonBody(event, ManualPayoutRequest);
  const deps = await payoutDeps(documentClient(), config, send);
  return json(200, await manual(deps, event.pathParameters?.statementId, request, admin));
});
