import * as z from 'zod';
import { SAMPLE_URL_TTL_SECONDS } from '../../../../events/training-values';
import { talentStore } from '../../../catalog';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { trainingsForAdmin } from './service';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';

const config = loadConfig(TrainingTableConfig.extend({ TALENT_TABLE: z.string().min(1), TRAINING_BUCKET: z.string().min(1) }));
const samples = s3Bucket(config.TRAINING_BUCKET);

/** `GET /admin/talent/{id}/trainings` (admins): the talent's trainings with state, duration, cost, logs and samples. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  return json(
    200,
    await trainingsForAdmin(
      {
        store: trainingStore(doc, config.TRAINING_TABLE),
        catalog: talentStore(doc, config.TALENT_TABLE),
        sampleUrl: (key) => samples.getUrl(key, { expiresIn: SAMPLE_URL_TTL_SECONDS }),
      },
      event.pathParameters?.id,
    ),
  );
});
