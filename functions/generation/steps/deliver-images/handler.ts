import sharp from 'sharp';
import * as z from 'zod';
import { replicateFromEnv } from '../../../shared/replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { creditLedger } from '../../../accounts';
import { generationStore } from '../../store';
import { talentStore } from '../../../catalog';
import { ApplicationNotFoundError, foundingStore } from '../../../founding';
import { GenerationInput, TablesConfig } from '../../input';
import { deliverImages } from './service';
import { licenseXmp } from './xmp';

const config = loadConfig(
  TablesConfig.extend({
    ACCOUNTS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    IMAGES_BUCKET: z.string().min(1),
    SITE_URL: z.url(),
  }),
);

const images = s3Bucket(config.IMAGES_BUCKET);

/** Workflow step DeliverImages: `{ generationId }` -> `{ delivered }`. */
export async function handler(event: unknown) {
  const { generationId } = GenerationInput.parse(event);
  const doc = documentClient();
  return deliverImages(
    {
      store: generationStore(doc, config.GENERATIONS_TABLE),
      ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
      replicate: replicateFromEnv,
      encode: (image, license) => sharp(image).png().withXmp(licenseXmp(license)).toBuffer(),
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
        return { royaltyPlan: found.talent.royaltyPlan, ...(email ? { email } : {}) };
      },
      now: () => new Date(),
    },
    generationId,
  );
}
