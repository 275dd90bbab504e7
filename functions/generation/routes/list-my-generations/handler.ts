import * as z from 'zod';
import { GenerationListQuery } from '../../../../events/generations';
import { accountStore, currentAccount } from '../../../accounts';
import { queryOf } from '../../../shared/admin-list';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationView, imageSigner } from '../../views';
import { ValidationError } from '../../../shared/errors';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { generationKeys } from '../../keys';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** Generations a page of the client's history holds. */
const HISTORY_PAGE_SIZE = 20;

const CURSOR_MESSAGE = 'cursor is not one this list gave out';

/** A cursor this client's own history gave out (it names the position in their list, nobody else's). */
function ownCursor(cursor: string | undefined, accountId: string): string | undefined {
  if (cursor === undefined) return undefined;
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  if ((position as { accountKey?: unknown } | undefined)?.accountKey !== generationKeys.accountKey(accountId)) {
    throw new ValidationError(CURSOR_MESSAGE, { cursor: CURSOR_MESSAGE });
  }
  return cursor;
}

/** `GET /me/generations?cursor=` (clients): the history, newest first, 20 a page, with short-lived image URLs. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const query = GenerationListQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  const doc = documentClient();
  const account = await currentAccount(accountStore(doc, config.ACCOUNTS_TABLE), caller);
  const page = await generationStore(doc, config.GENERATIONS_TABLE).listByAccount(account.id, { limit: HISTORY_PAGE_SIZE, cursor: ownCursor(query.data.cursor, account.id) });
  const signer = imageSigner(s3Bucket(config.IMAGES_BUCKET));
  const generations = await Promise.all(page.items.map((record) => generationView(record, signer)));
  return json(200, { generations, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
});
