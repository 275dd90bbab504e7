import * as z from 'zod';
import { AccountTables, accountStores } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { SAMPLE_URL_TTL_SECONDS } from '../../../../events/training-values';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { getMyLikenessModel } from './service';

const config = loadConfig(AccountTables.extend(TrainingTableConfig.shape).extend({ TRAINING_BUCKET: z.string().min(1) }));
const samples = s3Bucket(config.TRAINING_BUCKET);

/** `GET /me/likeness-model` (accepted talent): the caller's own likeness model, with short-lived sample URLs. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const { accounts, standing } = accountStores(doc, config);
  return json(
    200,
    await getMyLikenessModel(
      { accounts, standing, store: trainingStore(doc, config.TRAINING_TABLE), sampleUrl: (key) => samples.getUrl(key, { expiresIn: SAMPLE_URL_TTL_SECONDS }) },
      caller,
    ),
  );
});
