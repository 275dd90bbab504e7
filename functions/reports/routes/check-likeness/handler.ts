import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { sentFileOf } from '../../files';
import { LikenessCheckConfig, likenessCheckDeps } from '../../likeness-check';
import { checkLikenessFile } from './service';

const deps = likenessCheckDeps(loadConfig(LikenessCheckConfig));

/** `POST /me/likeness-check` (talent): "Is this me?" for an image file sent as the body. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  return json(200, await checkLikenessFile(deps, caller, sentFileOf(event)));
});
