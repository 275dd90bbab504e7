import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { startExecution } from '../../../shared/workflows';
import { TrainingTableConfig } from '../../config';
import { trainingStore } from '../../store';
import { startLikenessTraining } from './service';

const config = loadConfig(TrainingTableConfig.extend({ STATE_MACHINE_ARN: z.string().min(1) }));

/** Rule OnApplicationAccepted (`FoundingApplication.Decided`, decision accept): starts the application's likeness training. */
export async function handler(event: EventBridgeEvent<string, unknown>) {
  return startLikenessTraining(
    {
      store: trainingStore(documentClient(), config.TRAINING_TABLE),
      startExecution: (name, input) => startExecution(config.STATE_MACHINE_ARN, name, input),
      now: () => new Date(),
    },
    event.detail,
  );
}
