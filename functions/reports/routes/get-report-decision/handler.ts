import * as z from 'zod';
import { accountStore } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { generationStore } from '../../../generation';
import { reportStore } from '../../store';
import { clientReportDecision } from './service';

const config = loadConfig(z.object({ REPORTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), ACCOUNTS_TABLE: z.string().min(1) }));

/** `GET /reports/{reference}/decision` (client): the decision about the caller's license, with its statement of reasons. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const doc = documentClient();
  const deps = {
    store: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    accounts: accountStore(doc, config.ACCOUNTS_TABLE),
  };
  return json(200, await clientReportDecision(deps, caller, event.pathParameters?.reference ?? ''));
});
