// The site's calls to the generation and license routes (docs/product.md#create, #licenses):
// start and read a generation, the client's history, a license's download, the public license
// and the talent's usage. Every answer is checked against the shared contract
// (events/generations.ts) before a page sees it; the schemas load with import() on the first call,
// so the validation library is not part of what a page loads to start.
import type { PublicTalent } from '../../../events/talent';
import type { Generation, GenerationPage, GenerationStarted, LicenseDownload, LikenessUsage, PublicLicense, StartGenerationRequest } from '../../../events/generations';
import { LICENSE_ID_PATTERN } from '../../../events/generation-values';
import { ApiError } from '../api/http';
import { UnexpectedAnswerError, check, jsonCaller, type CallerOptions } from '../api/contract-call';

/** The license does not exist (HTTP 404, or an id that cannot be one). */
export class LicenseNotFoundError extends ApiError {
  override name = 'LicenseNotFoundError';
  constructor() {
    super(LICENSE_NOT_FOUND_MESSAGE, 404);
  }
}

export const LICENSE_NOT_FOUND_MESSAGE = 'License not found';
export type GenerationApiOptions = CallerOptions;

export interface GenerationApi {
  /** `POST /generations` (client): answered at once; the workflow runs after. The key makes a retry the same generation. */
  start(request: StartGenerationRequest, idempotencyKey: string): Promise<GenerationStarted>;
  /** `GET /generations/{id}` (owner). */
  get(id: string): Promise<Generation>;
  /** `GET /me/generations` (client): one page, newest first; pass the previous page's nextCursor for the next. */
  history(cursor?: string): Promise<GenerationPage>;
  /** `GET /licenses/{id}/download` (owner): a short-lived URL to the original file. */
  download(licenseId: string): Promise<LicenseDownload>;
  /** `GET /licenses/{id}` (public): the license without the prompt; LicenseNotFoundError when unknown. */
  license(licenseId: string): Promise<PublicLicense>;
  /** `GET /me/likeness-usage` (accepted talent): images made with the likeness, by month. */
  likenessUsage(): Promise<LikenessUsage>;
  /** `GET /me/exclusive-talent` (client): talent under an exclusive contract with the caller (hidden from the public list). */
  exclusiveTalent(): Promise<PublicTalent[]>;
}

const schemas = () => import('../../../events/generations');

/** True for a string shaped like a license id (so a typo never reaches the API). */
const isLicenseId = (id: string) => LICENSE_ID_PATTERN.test(id);

export function generationApi(options: GenerationApiOptions): GenerationApi {
  const call = jsonCaller(options);

  const id = (value: string) => encodeURIComponent(value);

  return {
    async start(request, idempotencyKey) {
      const [s, answer] = await Promise.all([schemas(), call('POST', '/generations', { body: request, headers: { 'idempotency-key': idempotencyKey } })]);
      return check(s.GenerationStarted, answer.json, answer.what, answer.status);
    },
    async get(generationId) {
      const [s, answer] = await Promise.all([schemas(), call('GET', `/generations/${id(generationId)}`)]);
      const generation = check(s.Generation, answer.json, answer.what, answer.status);
      if (generation.id !== generationId) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (id: another generation)`, answer.status);
      }
      return generation;
    },
    async history(cursor) {
      const query = cursor ? `?${new URLSearchParams({ cursor })}` : '';
      const [s, answer] = await Promise.all([schemas(), call('GET', `/me/generations${query}`)]);
      const page = check(s.GenerationPage, answer.json, answer.what, answer.status);
      if (cursor && page.nextCursor === cursor) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (nextCursor: the same page again)`, answer.status);
      }
      return page;
    },
    async download(licenseId) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      const [s, answer] = await Promise.all([schemas(), call('GET', `/licenses/${id(licenseId)}/download`)]);
      const download = check(s.LicenseDownload, answer.json, answer.what, answer.status);
      if (!/^https?:\/\//.test(download.url)) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (url: not a web address)`, answer.status);
      }
      return download;
    },
    async license(licenseId) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      const [s, answer] = await Promise.all([
        schemas(),
        call('GET', `/licenses/${id(licenseId)}`, { signedIn: false }).catch((err: unknown) => {
          throw err instanceof ApiError && err.status === 404 ? new LicenseNotFoundError() : err;
        }),
      ]);
      const license = check(s.PublicLicense, answer.json, answer.what, answer.status);
      if (license.id !== licenseId) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (id: another license)`, answer.status);
      }
      return license;
    },
    async likenessUsage() {
      const [s, answer] = await Promise.all([schemas(), call('GET', '/me/likeness-usage')]);
      return check(s.LikenessUsage, answer.json, answer.what, answer.status);
    },
    async exclusiveTalent() {
      const [s, answer] = await Promise.all([import('../../../events/talent'), call('GET', '/me/exclusive-talent')]);
      return check(s.TalentListResponse, answer.json, answer.what, answer.status).talent;
    },
  };
}
