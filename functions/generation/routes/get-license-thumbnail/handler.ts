import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { getLicenseThumbnail } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** Seconds a browser may reuse a thumbnail: short, so an erasure reaches viewers soon (the CDN keeps none). */
const THUMBNAIL_CACHE_SECONDS = 300;

/** `GET /licenses/{id}/thumbnail` (anyone): the licensed image as a small WebP, for the license page. */
export const handler = httpHandler(async (event) => {
  const thumbnail = await getLicenseThumbnail(
    { generations: generationStore(documentClient(), config.GENERATIONS_TABLE), images: s3Bucket(config.IMAGES_BUCKET) },
    event.pathParameters?.id ?? '',
  );
  return {
    statusCode: 200,
    headers: { 'content-type': 'image/webp', 'cache-control': `public, max-age=${THUMBNAIL_CACHE_SECONDS}`, 'x-content-type-options': 'nosniff' },
    body: thumbnail.toString('base64'),
    isBase64Encoded: true,
  };
});
