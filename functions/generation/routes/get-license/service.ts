import { LICENSE_ID_MESSAGE, LICENSE_ID_PATTERN, LICENSE_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import type { GenerationStore } from '../../store';
import { publicLicenseView } from '../../views';

/**
 * `GET /licenses/{id}` (anyone): confirms a license (talent, licensee, date, scope, style),
 * never the prompt, the client's email or the file. 400 for an id that is not a license id.
 */
export async function confirmLicense(store: Pick<GenerationStore, 'getLicense'>, id: string): Promise<ReturnType<typeof publicLicenseView>> {
  if (!LICENSE_ID_PATTERN.test(id)) throw new ValidationError(LICENSE_ID_MESSAGE, { id: LICENSE_ID_MESSAGE });
  const license = await store.getLicense(id);
  if (!license) throw new NotFoundError(LICENSE_NOT_FOUND_MESSAGE);
  return publicLicenseView(license);
}
