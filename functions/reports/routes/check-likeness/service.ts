import type { LikenessCheckResult } from '../../../../events/reports';
import type { AccountCaller } from '../../../shared/auth';
import { checkedFile, type SentFile } from '../../files';
import { checkLikeness, countCheck, type LikenessCheckDeps } from '../../likeness-check';

/** `POST /me/likeness-check` (talent): the image file as the body, checked against what we delivered. */
export async function checkLikenessFile(deps: LikenessCheckDeps, caller: AccountCaller, sent: SentFile): Promise<LikenessCheckResult> {
  const { bytes } = checkedFile(sent);
  await countCheck(deps, caller);
  return checkLikeness(deps, caller, bytes);
}
