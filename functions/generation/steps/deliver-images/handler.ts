import sharp from 'sharp';
import * as z from 'zod';
import { replicateFromEnv } from '../../replicate';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { creditLedger } from '../../../accounts';
import { generationStore } from '../../store';
import { talentStore } from '../../../catalog';
import { GenerationInput, TablesConfig } from '../../input';
import { deliverImages } from './service';
import { licenseXmp } from './xmp';

const config = loadConfig(
  TablesConfig.extend({
    ACCOUNTS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
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
      royaltyPlanOf: async (talentId) => (await talentStore(doc, config.TALENT_TABLE).get(talentId))?.royaltyPlan,
      now: () => new Date(),
    },
    generationId,
  );
}
