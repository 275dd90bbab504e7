import * as z from 'zod';
import { AppealRequest } from '../../../../events/reports';
import { accountStore } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { generationStore } from '../../../generation';
import { reportStore } from '../../store';
import { appealReport } from './service';

const config = loadConfig(
  z.object({ REPORTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), ACCOUNTS_TABLE: z.string().min(1), EVENT_BUS_NAME: z.string().min(1) }),
);

/** `POST /reports/{reference}/appeal` `{ statement }` (client): appeals a decision about the caller's license. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const request = parseJsonBody(event, AppealRequest);
  const doc = documentClient();
  const deps = {
    store: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    accounts: accountStore(doc, config.ACCOUNTS_TABLE),
    publish: (type: string, detail: object) => publish(config.EVENT_BUS_NAME, type, detail),
  };
  return json(200, await appealReport(deps, caller, event.pathParameters?.reference ?? '', request));
});
