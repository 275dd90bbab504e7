import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { resumeTask } from '../../../shared/workflows';
import { TrainingInput, TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { awaitTraining } from './service';

const config = loadConfig(TrainingTableConfig);
const Input = TrainingInput.extend({ taskToken: z.string().min(1) });

/** Workflow step AwaitTraining (`.waitForTaskToken`): `{ trainingId, taskToken }`. */
export async function handler(event: unknown) {
  const { trainingId, taskToken } = Input.parse(event);
  return awaitTraining(
    {
      store: trainingStore(documentClient(), config.TRAINING_TABLE),
      resume: resumeTask,
    },
    trainingId,
    taskToken,
  );
}
