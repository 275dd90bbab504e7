import * as z from 'zod';
import { RetrainRequest } from '../../../../events/training';
import { talentStore } from '../../../catalog';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { startExecution } from '../../../shared/workflows';
import { retrain } from './service';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';

const config = loadConfig(
  TrainingTableConfig.extend({ TALENT_TABLE: z.string().min(1), STATE_MACHINE_ARN: z.string().min(1), MODEL_OWNER: z.string().min(1) }),
);

/** `POST /admin/talent/{id}/trainings` (admins): trains the talent's model again, with other steps if given (202). */
export const handler = httpHandler(async (event) => {
  const admin = requireGroup(event, 'admin');
  const request = parseJsonBody(event, RetrainRequest);
  const doc = documentClient();
  const answer = await retrain(
    {
      store: trainingStore(doc, config.TRAINING_TABLE),
      catalog: talentStore(doc, config.TALENT_TABLE),
      startExecution: (name, input) => startExecution(config.STATE_MACHINE_ARN, name, input),
      modelOwner: config.MODEL_OWNER,
      now: () => new Date(),
    },
    event.pathParameters?.id,
    request,
    admin.email ?? admin.sub,
  );
  return json(202, answer);
});
