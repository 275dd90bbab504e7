import * as z from 'zod';
import { AdminGrantRequest } from '../../../../events/accounts';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { accountStore } from '../../store';
import { creditLedger } from '../../credits';
import { accountIdOf, actorOf } from '../../users';
import { grantCredits } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/**
 * `POST /admin/users/{id}/credits` `{credits, category, reason}` with an `Idempotency-Key` header: grants a
 * client credits; answers `{entry, balance}` (201 the first time, 200 for a repeat). Admins only.
 */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = accountIdOf(event);
  const key = idempotencyKeyOf(event);
  const body = parseJsonBody(event, AdminGrantRequest);
  const doc = documentClient();
  const result = await grantCredits(
    { accounts: accountStore(doc, config.ACCOUNTS_TABLE), ledger: creditLedger(doc, config.ACCOUNTS_TABLE) },
    id,
    { ...body, key },
    actorOf(caller),
  );
  if (!result.replayed) log.info('credits granted', { accountId: id, credits: body.credits, category: body.category, by: caller.sub });
  return json(result.replayed ? 200 : 201, { entry: result.entry, balance: result.balance });
});
