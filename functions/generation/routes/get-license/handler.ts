import * as z from 'zod';
import { LICENSE_ID_MESSAGE, LICENSE_ID_PATTERN, LICENSE_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import { publicLicenseView } from '../../views';
import { httpHandler, json } from '../../../shared/http';
import { generationStore } from '../../store';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** Seconds browsers and CDNs may reuse a license confirmation: short, like the catalog. */
const LICENSE_CACHE_SECONDS = 60;

/**
 * `GET /licenses/{id}` (anyone): confirms a license (talent, licensee, date, scope, style),
 * never the prompt, the client's email or the file. 400 for an id that is not a license id.
 */
export const handler = httpHandler(async (event) => {
  const id = event.pathParameters?.id ?? '';
  if (!LICENSE_ID_PATTERN.test(id)) throw new ValidationError(LICENSE_ID_MESSAGE, { id: LICENSE_ID_MESSAGE });
  const license = await generationStore(documentClient(), config.GENERATIONS_TABLE).getLicense(id);
  if (!license) throw new NotFoundError(LICENSE_NOT_FOUND_MESSAGE);
  return json(200, publicLicenseView(license), { 'cache-control': `public, max-age=${LICENSE_CACHE_SECONDS}` });
});
