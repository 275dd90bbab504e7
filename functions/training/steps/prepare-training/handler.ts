import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { foundingStore } from '../../../founding';
import { talentStore } from '../../../catalog';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { PrepareInput, prepareTraining } from './service';

const config = loadConfig(TrainingTableConfig.extend({ APPLICATIONS_TABLE: z.string().min(1), TALENT_TABLE: z.string().min(1), MODEL_OWNER: z.string().min(1) }));

/** Workflow step PrepareTraining: `{ input: <the execution's input> }` -> `{ trainingId, proceed }`. */
export async function handler(event: unknown) {
  const doc = documentClient();
  return prepareTraining(
    {
      store: trainingStore(doc, config.TRAINING_TABLE),
      founding: foundingStore(doc, config.APPLICATIONS_TABLE),
      talent: talentStore(doc, config.TALENT_TABLE),
      modelOwner: config.MODEL_OWNER,
      now: () => new Date(),
    },
    PrepareInput.parse(event),
  );
}
