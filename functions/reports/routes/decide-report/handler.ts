import * as z from 'zod';
import { ReportDecisionRequest } from '../../../../events/reports';
import { adminActorOf, requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { talentStore } from '../../../catalog';
import { generationStore } from '../../../generation';
import { reportStore } from '../../store';
import { decideReport } from './service';

const config = loadConfig(
  z.object({ REPORTS_TABLE: z.string().min(1), REPORTS_BUCKET: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), TALENT_TABLE: z.string().min(1), EVENT_BUS_NAME: z.string().min(1) }),
);

/** `POST /admin/reports/{reference}/decision` `{ action, reasons, sampleUrl? }`: decides a case. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const request = parseJsonBody(event, ReportDecisionRequest);
  const doc = documentClient();
  const deps = {
    store: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    talents: talentStore(doc, config.TALENT_TABLE),
    files: s3Bucket(config.REPORTS_BUCKET),
    publish: (type: string, detail: object) => publish(config.EVENT_BUS_NAME, type, detail),
  };
  return json(200, await decideReport(deps, event.pathParameters?.reference ?? '', request, adminActorOf(caller)));
});
