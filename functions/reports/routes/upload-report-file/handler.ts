import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../../generation';
import { sentFileOf } from '../../files';
import { reportStore } from '../../store';
import { uploadReportFile } from './service';

const config = loadConfig(
  z.object({ REPORTS_TABLE: z.string().min(1), REPORTS_BUCKET: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }),
);

/** `POST /reports/files` (anyone): the image as the body; 201 `{ fileId, match }`. */
export const handler = httpHandler(async (event) => {
  const doc = documentClient();
  const store = reportStore(doc, config.REPORTS_TABLE);
  const result = await uploadReportFile(
    { store, index: store, licenses: generationStore(doc, config.GENERATIONS_TABLE), files: s3Bucket(config.REPORTS_BUCKET), limit: rateLimiter(doc, config.RATE_LIMITS_TABLE) },
    sentFileOf(event),
    { ip: clientIpOf(event) },
  );
  return json(201, result);
});
