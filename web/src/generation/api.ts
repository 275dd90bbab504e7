// The site's calls to the generation and license routes (docs/product.md#create, #licenses):
// start and read a generation, the client's history, a license's download, the public license
// and the talent's usage. Every answer is checked against the shared contract
// (events/generations.ts) before a page sees it; the schemas load with import() on the first call,
// so the validation library is not part of what a page loads to start.
import type { PublicTalent } from '../../../events/talent';
import type { Generation, GenerationPage, GenerationStarted, LicenseDownload, LikenessUsage, PublicLicense, StartGenerationRequest } from '../../../events/generations';
import { LICENSE_ID_PATTERN } from '../../../events/generation-values';
import type { LicenseFileCheck } from '../../../events/license-check';
import { ApiError, apiClient, signedInWording, type ApiOptions } from '../api/client';

/** The license does not exist (HTTP 404, or an id that cannot be one). */
export class LicenseNotFoundError extends ApiError {
  override name = 'LicenseNotFoundError';
  constructor() {
    super(LICENSE_NOT_FOUND_MESSAGE, 404);
  }
}

export const LICENSE_NOT_FOUND_MESSAGE = 'License not found';
export type GenerationApiOptions = ApiOptions;

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
  /** `GET /licenses/{id}/thumbnail` (public): the address of the licensed image's thumbnail, for an <img>. */
  thumbnailUrl(licenseId: string): string;
  /**
   * `POST /licenses/{id}/check` (public): sends the file to be compared with the licensed image;
   * the license and the verdict. LicenseNotFoundError when the license is unknown.
   */
  checkFile(licenseId: string, file: Blob): Promise<LicenseFileCheck>;
  /** `GET /me/likeness-usage` (accepted talent): images made with the likeness, by month. */
  likenessUsage(): Promise<LikenessUsage>;
  /** `GET /me/exclusive-talent` (client): talent under an exclusive contract with the caller (hidden from the public list). */
  exclusiveTalent(): Promise<PublicTalent[]>;
}

const schemas = () => import('../../../events/generations');
const checkSchemas = () => import('../../../events/license-check');

/** True for a string shaped like a license id (so a typo never reaches the API). */
const isLicenseId = (id: string) => LICENSE_ID_PATTERN.test(id);

export function generationApi(options: GenerationApiOptions): GenerationApi {
  const api = apiClient(options);

  const id = (value: string) => encodeURIComponent(value);

  return {
    start: (request, idempotencyKey) =>
      api.read('POST', '/generations', () => schemas().then((s) => s.GenerationStarted), { body: request, headers: { 'idempotency-key': idempotencyKey } }),
    get: (generationId) =>
      api.read('GET', `/generations/${id(generationId)}`, () => schemas().then((s) => s.Generation), {
        expect: (generation) => (generation.id !== generationId ? 'id: another generation' : undefined),
      }),
    history(cursor) {
      const query = cursor ? `?${new URLSearchParams({ cursor })}` : '';
      return api.read('GET', `/me/generations${query}`, () => schemas().then((s) => s.GenerationPage), {
        expect: (page) => (cursor && page.nextCursor === cursor ? 'nextCursor: the same page again' : undefined),
      });
    },
    async download(licenseId) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      return api.read('GET', `/licenses/${id(licenseId)}/download`, () => schemas().then((s) => s.LicenseDownload), {
        expect: (download) => (/^https?:\/\//.test(download.url) ? undefined : 'url: not a web address'),
      });
    },
    async license(licenseId) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      return api.read('GET', `/licenses/${id(licenseId)}`, () => schemas().then((s) => s.PublicLicense), {
        signedIn: false,
        wording: { refused: (r) => (r.status === 404 ? new LicenseNotFoundError() : signedInWording.refused(r)) },
        expect: (license) => (license.id !== licenseId ? 'id: another license' : undefined),
      });
    },
    thumbnailUrl: (licenseId) => `${options.apiUrl}/licenses/${id(licenseId)}/thumbnail`,
    async checkFile(licenseId, file) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      return api.read('POST', `/licenses/${id(licenseId)}/check`, () => checkSchemas().then((s) => s.LicenseFileCheck), {
        body: file,
        signedIn: false,
        wording: { refused: (r) => (r.status === 404 && r.serverError === LICENSE_NOT_FOUND_MESSAGE ? new LicenseNotFoundError() : signedInWording.refused(r)) },
        expect: (check) => (check.license.id !== licenseId ? 'license.id: another license' : undefined),
      });
    },
    likenessUsage: () => api.read('GET', '/me/likeness-usage', () => schemas().then((s) => s.LikenessUsage)),
    async exclusiveTalent() {
      const answer = await api.read('GET', '/me/exclusive-talent', () => import('../../../events/talent').then((s) => s.TalentListResponse));
      return answer.talent;
    },
  };
}
