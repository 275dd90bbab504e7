import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { generationStore, keepLicensePixelHash } from '../../store';
import { checkLicenseFile } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

/**
 * `POST /licenses/{id}/check` (anyone): the image file as the body (`Content-Type: image/png`,
 * `image/jpeg`, `image/webp` or `application/octet-stream`); answers the license and whether the
 * file is its image. API Gateway hands a binary body over base64-encoded.
 */
export const handler = httpHandler(async (event) => {
  const doc = documentClient();
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : undefined;
  const result = await checkLicenseFile(
    {
      generations: generationStore(doc, config.GENERATIONS_TABLE),
      images: s3Bucket(config.IMAGES_BUCKET),
      keepPixelHash: (id, hash) => keepLicensePixelHash(doc, config.GENERATIONS_TABLE, id, hash),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    },
    { id: event.pathParameters?.id ?? '', contentType: event.headers?.['content-type'], file: body },
    { ip: clientIpOf(event) },
  );
  return json(200, result);
});
