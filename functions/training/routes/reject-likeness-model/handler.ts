import * as z from 'zod';
import { RejectLikenessModelRequest, SAMPLE_URL_TTL_SECONDS } from '../../../../events/training';
import { AccountTables, accountStores } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { s3Bucket } from '../../../shared/s3';
import { startExecution } from '../../../shared/workflows';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { rejectLikenessModel } from './service';

const config = loadConfig(
  AccountTables.extend(TrainingTableConfig.shape).extend({ TRAINING_BUCKET: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1), STATE_MACHINE_ARN: z.string().min(1) }),
);
const samples = s3Bucket(config.TRAINING_BUCKET);

/** `POST /me/likeness-model/reject` `{ note }` (accepted talent): rejects the version waiting for review; 202 when a new training starts. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const { note } = parseJsonBody(event, RejectLikenessModelRequest);
  const doc = documentClient();
  const { accounts, standing, talent } = accountStores(doc, config);
  const answer = await rejectLikenessModel(
    {
      accounts,
      standing,
      catalog: talent,
      store: trainingStore(doc, config.TRAINING_TABLE),
      sampleUrl: (key) => samples.getUrl(key, { expiresIn: SAMPLE_URL_TTL_SECONDS }),
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      startExecution: (name, input) => startExecution(config.STATE_MACHINE_ARN, name, input),
      now: () => new Date(),
    },
    caller,
    note,
  );
  return json(answer.retraining ? 202 : 200, answer);
});
