import type { LikenessCheckResult, LikenessCheckUrlRequest } from '../../../../events/reports';
import type { AccountCaller } from '../../../shared/auth';
import { checkLikeness, countCheck, type LikenessCheckDeps } from '../../likeness-check';

export interface UrlCheckDeps extends LikenessCheckDeps {
  /** Fetches the image at a public URL (functions/reports/url-safety.ts). */
  fetchImage: (url: string) => Promise<Buffer>;
}

/**
 * `POST /me/likeness-check/url` (talent): the server fetches the image at the URL, only from a
 * public http(s) host, within the size and time limits, and checks it as a sent file.
 */
export async function checkLikenessUrl(deps: UrlCheckDeps, caller: AccountCaller, request: LikenessCheckUrlRequest): Promise<LikenessCheckResult> {
  await countCheck(deps, caller);
  return checkLikeness(deps, caller, await deps.fetchImage(request.url));
}
