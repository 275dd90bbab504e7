import * as z from 'zod';
import { LikenessCheckUrlRequest } from '../../../../events/reports';
import { AccountTables, accountStores } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { rateLimiter } from '../../../shared/rate-limit';
import { generationStore } from '../../../generation';
import { reportStore } from '../../store';
import { fetchPublicImage } from '../../url-safety';
import { checkLikenessUrl } from './service';

const config = loadConfig(AccountTables.extend({ REPORTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

/** `POST /me/likeness-check/url` (talent): "Is this me?" for the image at a public URL. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const request = parseJsonBody(event, LikenessCheckUrlRequest);
  const doc = documentClient();
  const stores = accountStores(doc, config);
  const deps = {
    index: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
    talent: { accounts: stores.accounts, standing: stores.standing },
    fetchImage: (url: string) => fetchPublicImage(url),
  };
  return json(200, await checkLikenessUrl(deps, caller, request));
});
