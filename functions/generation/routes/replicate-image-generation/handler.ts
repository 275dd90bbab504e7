import * as z from 'zod';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { imageSigner } from '../../views';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { startDepsFromEnv } from '../../start-deps';
import { replicateImageGeneration } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/**
 * `POST /functions/v1/replicate-image-generation` (clients): the spec's function. A start answers
 * 200 `{id}`; a poll `{predictionId}` answers 200 `{status, output, error?}`.
 */
export const handler = httpHandler(async (event, context) => {
  const caller = requireRole(event, 'client');
  const body = parseJsonBody(event, z.record(z.string(), z.unknown()));
  const answer = await replicateImageGeneration(
    {
      start: startDepsFromEnv(context),
      generations: generationStore(documentClient(), config.GENERATIONS_TABLE),
      signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)),
    },
    caller,
    body,
    idempotencyKeyOf(event),
  );
  return json(200, answer);
});
