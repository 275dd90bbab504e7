import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { resumeTask } from '../../../shared/workflows';
import { generationStore } from '../../store';
import { GenerationInput, TablesConfig } from '../../input';
import { awaitPrediction } from './service';

const config = loadConfig(TablesConfig);

const Input = GenerationInput.extend({ taskToken: z.string().min(1) });

/** Workflow step AwaitPrediction (`.waitForTaskToken`): `{ generationId, taskToken }`. */
export async function handler(event: unknown) {
  const { generationId, taskToken } = Input.parse(event);
  return awaitPrediction(
    {
      store: generationStore(documentClient(), config.GENERATIONS_TABLE),
      resume: resumeTask,
      now: () => new Date(),
    },
    generationId,
    taskToken,
  );
}
