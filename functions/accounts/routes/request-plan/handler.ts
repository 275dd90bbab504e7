import * as z from 'zod';
import { PlanRequestBody } from '../../../../events/accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { accountStore } from '../../store';
import { requestPlan } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

/** `POST /me/plan-requests` (clients): 201 with the pending request. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const { plan } = parseJsonBody(event, PlanRequestBody);
  const doc = documentClient();
  const request = await requestPlan({ accounts: accountStore(doc, config.ACCOUNTS_TABLE), limit: rateLimiter(doc, config.RATE_LIMITS_TABLE) }, caller, plan);
  return json(201, request);
});
