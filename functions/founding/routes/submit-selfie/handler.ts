import * as z from 'zod';
import { SelfieSubmitRequest } from '../../../../events/identity';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { analyzePhoto } from '../../faces';
import { identityKeyFromEnv } from '../../identity/crypto';
import { foundingStore } from '../../store';
import { submitSelfie } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), PHOTOS_BUCKET: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

/** `POST /founding-identity/selfie`: analyses the live selfie and matches it with the photos. */
export const handler = httpHandler(async (event) => {
  const doc = documentClient();
  return json(
    200,
    await submitSelfie(
      { store: foundingStore(doc, config.APPLICATIONS_TABLE), storage: s3Bucket(config.PHOTOS_BUCKET), limit: rateLimiter(doc, config.RATE_LIMITS_TABLE), key: identityKeyFromEnv, analyze: (bytes) => analyzePhoto(bytes) },
      parseJsonBody(event, SelfieSubmitRequest),
      clientIpOf(event),
    ),
  );
});
