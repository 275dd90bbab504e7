import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { FoundingIdentityCheckRequestedV1 } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { resumeTask } from '../../../shared/workflows';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { s3Bucket } from '../../../shared/s3';
import { stripeFileContents, stripeFromEnv } from '../../../shared/stripe';
import { analyzePhoto, recentAnalyses } from '../../faces';
import { identityKeyFromEnv } from '../../identity/crypto';
import { validateObjects } from '../../photos/validate';
import { foundingStore } from '../../store';
import { checkFaces } from './service';

/** The selfie of a VerificationSession: its last report's selfie file, read from Stripe, and when the report was made. */
async function verifiedSelfieOf(sessionId: string): Promise<{ bytes: Buffer; takenAt: string } | undefined> {
  const stripe = await stripeFromEnv();
  const session = await stripe.identity.verificationSessions.retrieve(sessionId, { expand: ['last_verification_report'] });
  const last = session.last_verification_report;
  const report = typeof last === 'string' ? await stripe.identity.verificationReports.retrieve(last) : last;
  const fileId = report?.selfie?.selfie;
  if (!report || !fileId) return undefined;
  return { bytes: await stripeFileContents(fileId), takenAt: new Date(report.created * 1000).toISOString() };
}

// Kept across invocations of a warm container: a retried or repeated check skips what it analysed.
const analyze = recentAnalyses(analyzePhoto);

const config = loadConfig(EmailConfig.extend({ APPLICATIONS_TABLE: z.string().min(1), PHOTOS_BUCKET: z.string().min(1) }));
const send = emailSender(config);

/** Consumer of `FoundingApplication.IdentityCheckRequested`: the face checks of one application, or its verified selfie's. */
export async function handler(event: EventBridgeEvent<'FoundingApplication.IdentityCheckRequested', unknown>) {
  const { applicationId, sessionId } = FoundingIdentityCheckRequestedV1.parse(event.detail);
  const storage = s3Bucket(config.PHOTOS_BUCKET);
  return checkFaces(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      storage,
      key: identityKeyFromEnv,
      analyze,
      validate: async (id, keys, firstIndex) => (await validateObjects({ storage, firstIndex }, id, keys)).results,
      send,
      siteUrl: config.SITE_URL,
      resume: async (token, output) => void (await resumeTask(token, output)),
      verifiedSelfie: (id) => verifiedSelfieOf(id),
    },
    applicationId,
    sessionId,
  );
}
