import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../../generation';
import { reportStore } from '../../store';
import { getReport } from './service';

const config = loadConfig(z.object({ REPORTS_TABLE: z.string().min(1), REPORTS_BUCKET: z.string().min(1), GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /admin/reports/{reference}`: one case. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  const deps = { store: reportStore(doc, config.REPORTS_TABLE), licenses: generationStore(doc, config.GENERATIONS_TABLE), files: s3Bucket(config.REPORTS_BUCKET) };
  return json(200, await getReport(deps, event.pathParameters?.reference ?? ''));
});
