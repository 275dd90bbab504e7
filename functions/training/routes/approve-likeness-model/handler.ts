import * as z from 'zod';
import { SAMPLE_URL_TTL_SECONDS } from '../../../../events/training';
import { AccountTables, accountStores } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { approveLikenessModel, type ApproveDeps } from './service';

const config = loadConfig(AccountTables.extend(TrainingTableConfig.shape).extend({ TRAINING_BUCKET: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));
const samples = s3Bucket(config.TRAINING_BUCKET);

/** `POST /me/likeness-model/approve` (accepted talent): the version waiting for their review goes live. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const { accounts, standing, talent } = accountStores(doc, config);
  const deps: ApproveDeps = {
    accounts,
    standing,
    catalog: talent,
    store: trainingStore(doc, config.TRAINING_TABLE),
    sampleUrl: (key) => samples.getUrl(key, { expiresIn: SAMPLE_URL_TTL_SECONDS }),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    now: () => new Date(),
  };
  return json(200, await approveLikenessModel(deps, caller));
});
