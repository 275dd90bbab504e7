import * as z from 'zod';
import { MarkPayoutRequest } from '../../../../events/royalties';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { royaltyStore } from '../../store';
import { talentStore } from '../../../catalog';
import { markStatementPayout } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), TALENT_TABLE: z.string().min(1) }));

/** `PUT /admin/statements/{id}/payout` (admins): marks a statement paid (with the payment's reference) or unpaid; answers the statement. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const request = parseJsonBody(event, MarkPayoutRequest);
  const doc = documentClient();
  const statement = await markStatementPayout(
    { royalties: royaltyStore(doc, config.GENERATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE), now: () => new Date() },
    event.pathParameters?.id,
    request,
    caller.email ?? caller.sub,
  );
  // Which statement and which admin (by id), never the reference or an email.
  log.info('statement payout changed', { statementId: statement.id, status: request.status, by: caller.sub });
  return json(200, statement);
});
