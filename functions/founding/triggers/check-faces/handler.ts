import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { FoundingIdentityCheckRequestedV1 } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { resumeTask } from '../../../shared/workflows';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { s3Bucket } from '../../../shared/s3';
import { analyzePhoto } from '../../faces';
import { identityKeyFromEnv } from '../../identity/crypto';
import { validateObjects } from '../../photos/validate';
import { foundingStore } from '../../store';
import { checkFaces } from './service';

const config = loadConfig(EmailConfig.extend({ APPLICATIONS_TABLE: z.string().min(1), PHOTOS_BUCKET: z.string().min(1) }));
const send = emailSender(config);

/** Consumer of `FoundingApplication.IdentityCheckRequested`: the face checks of one application. */
export async function handler(event: EventBridgeEvent<'FoundingApplication.IdentityCheckRequested', unknown>) {
  const { applicationId } = FoundingIdentityCheckRequestedV1.parse(event.detail);
  const storage = s3Bucket(config.PHOTOS_BUCKET);
  return checkFaces(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      storage,
      key: identityKeyFromEnv,
      analyze: (bytes) => analyzePhoto(bytes),
      validate: async (id, keys, firstIndex) => (await validateObjects({ storage, firstIndex }, id, keys)).results,
      send,
      siteUrl: config.SITE_URL,
      resume: async (token, output) => void (await resumeTask(token, output)),
    },
    applicationId,
  );
}
