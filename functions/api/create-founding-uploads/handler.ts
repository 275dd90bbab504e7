import * as z from 'zod';
import { FoundingUploadRequest } from '../../../events/founding';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../shared/http';
import { s3Client } from '../../shared/s3';
import { createUploads } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
  }),
);

/** `POST /founding-uploads`: presigned PUT URLs for an applicant's photos and zips. */
export const handler = httpHandler(async (event) => {
  const request = parseJsonBody(event, FoundingUploadRequest);
  const result = await createUploads(
    { doc: documentClient(), s3: s3Client(), tableName: config.APPLICATIONS_TABLE, bucketName: config.PHOTOS_BUCKET },
    request,
  );
  return json(200, result);
});
