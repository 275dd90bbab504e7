import { KMSClient } from '@aws-sdk/client-kms';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import sharp from 'sharp';
import * as z from 'zod';
import { replicateFromEnv } from '../../../shared/replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { log } from '../../../shared/log';
import { secretValue } from '../../../shared/secrets';
import { s3Bucket } from '../../../shared/s3';
import { creditLedger } from '../../../accounts';
import { generationStore } from '../../store';
import { talentStore } from '../../../catalog';
import { ApplicationNotFoundError, foundingStore } from '../../../founding';
import { GenerationInput, TablesConfig } from '../../input';
import { deliverImages } from './service';
import { withContentCredentials } from './credentials';
import { holdsCertificate, kmsDigestSigner, ps256Signer } from './signer';
import { licenseXmp } from './xmp';
import { pngWithXmp } from './png';

const config = loadConfig(
  TablesConfig.extend({
    ACCOUNTS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    IMAGES_BUCKET: z.string().min(1),
    SITE_URL: z.url(),
    CREDENTIALS_KEY_ID: z.string().min(1),
    CREDENTIALS_CHAIN_SECRET: z.string().min(1),
  }),
);

const images = s3Bucket(config.IMAGES_BUCKET);

let signer: Promise<Signer | undefined> | undefined;
/**
 * The Content Credentials signer, once per container: the KMS key and its certificate chain;
 * undefined while the chain secret holds no certificate (before a CA issued one).
 */
function credentialsSigner(): Promise<Signer | undefined> {
  signer ??= secretValue(config.CREDENTIALS_CHAIN_SECRET, 'Content Credentials certificate chain').then((chain) =>
    holdsCertificate(chain) ? ps256Signer(kmsDigestSigner(new KMSClient({}), config.CREDENTIALS_KEY_ID), chain) : undefined,
  );
  signer.catch(() => (signer = undefined));
  return signer;
}

/** Workflow step DeliverImages: `{ generationId }` -> `{ delivered }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  return deliverImages(
    {
      store: generationStore(doc, config.GENERATIONS_TABLE),
      ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
      replicate: replicateFromEnv,
      encode: async (image, license) => {
        const xmp = licenseXmp(license);
        // A PNG output keeps its pixels as they are; anything else is decoded and encoded as PNG.
        return pngWithXmp(image, xmp) ?? sharp(image).png().withXmp(xmp).toBuffer();
      },
      sign: async (png, credentials) => {
        const credentialsKey = await credentialsSigner();
        if (credentialsKey) return withContentCredentials(png, credentials, credentialsKey);
        // A stage whose chain is not set yet delivers without them, and says so for every image.
        log.error('the Content Credentials certificate chain is not set: an image is delivered without Content Credentials', undefined, { licenseId: credentials.licenseId });
        return png;
      },
      putImage: (key, body) => images.write(key, body, 'image/png'),
      siteUrl: config.SITE_URL.replace(/\/+$/, ''),
      talentTable: config.TALENT_TABLE,
      talentOf: async (talentId) => {
        const found = await talentStore(doc, config.TALENT_TABLE).getForGeneration(talentId);
        if (!found) return undefined;
        // The talent's account is the one under their application's address (their standing's rule).
        const applicationId = found.controls.applicationId;
        const email = applicationId
          ? await foundingStore(doc, config.APPLICATIONS_TABLE)
              .getApplication(applicationId)
              .then((a) => a.email)
              .catch((err: unknown) => {
                if (err instanceof ApplicationNotFoundError) return undefined;
                throw err;
              })
          : undefined;
        const generation = found.controls.generation;
        const model = generation?.model ?? generation?.version;
        return { royaltyPlan: found.talent.royaltyPlan, ...(email ? { email } : {}), ...(model ? { model } : {}) };
      },
      now: () => new Date(),
    },
    generationId,
  );
}
