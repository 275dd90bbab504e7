import * as z from 'zod';
import { FoundingSignupRequest } from '../../../events/founding';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { publish } from '../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../shared/http';
import { s3Client } from '../../shared/s3';
import { submitApplication } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
  }),
);

/** Long answers (5000 characters each) and 80 image paths fit; nothing larger is read. */
const MAX_SIGNUP_BODY_BYTES = 64 * 1024;

/** `POST /founding-talent-signup` and `POST /functions/v1/founding-talent-signup`. */
export const handler = httpHandler(async (event) => {
  const request = parseJsonBody(event, FoundingSignupRequest, { maxBytes: MAX_SIGNUP_BODY_BYTES });
  const result = await submitApplication(
    {
      doc: documentClient(),
      s3: s3Client(),
      tableName: config.APPLICATIONS_TABLE,
      bucketName: config.PHOTOS_BUCKET,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
    },
    request,
    { ip: event.requestContext?.http?.sourceIp, userAgent: event.requestContext?.http?.userAgent },
  );
  return json(200, result);
});
