import { LikenessCheckUrlRequest } from '../../../../events/reports';
import { requireRole } from '../../../shared/auth';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { LikenessCheckConfig, likenessCheckDeps } from '../../likeness-check';
import { fetchPublicImage } from '../../url-safety';
import { checkLikenessUrl } from './service';

const deps = { ...likenessCheckDeps(loadConfig(LikenessCheckConfig)), fetchImage: (url: string) => fetchPublicImage(url) };

/** `POST /me/likeness-check/url` (talent): "Is this me?" for the image at a public URL. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const request = parseJsonBody(event, LikenessCheckUrlRequest);
  return json(200, await checkLikenessUrl(deps, caller, request));
});
