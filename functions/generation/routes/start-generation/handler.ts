import { StartGenerationRequest } from '../../../../events/generations';
import { requireRole } from '../../../shared/auth';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { startDepsFromEnv } from '../../start-deps';
import { startMyGeneration } from './service';

/**
 * `POST /generations` (clients) `{talentId, prompt, style, count}`, with an optional
 * Idempotency-Key header: 202 `{id, status: 'queued'}`; the workflow does the rest.
 */
export const handler = httpHandler(async (event, context) => {
  const caller = requireRole(event, 'client');
  const request = parseJsonBody(event, StartGenerationRequest);
  const started = await startMyGeneration(startDepsFromEnv(context), caller, request, idempotencyKeyOf(event));
  return json(202, started);
});
