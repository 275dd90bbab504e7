import type { GenerationPage } from '../../../../events/generations';
import { currentAccount, type AccountStore } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { ValidationError } from '../../../shared/errors';
import { generationKeys } from '../../keys';
import type { GenerationStore } from '../../store';
import { generationView, type ImageSigner } from '../../views';

export interface MyGenerationsDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  generations: Pick<GenerationStore, 'listByAccount'>;
  signer: Pick<ImageSigner, 'view'>;
}

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
export async function myGenerations(deps: MyGenerationsDeps, caller: AccountCaller, cursor: string | undefined): Promise<GenerationPage> {
  const account = await currentAccount(deps.accounts, caller);
  const page = await deps.generations.listByAccount(account.id, { limit: HISTORY_PAGE_SIZE, cursor: ownCursor(cursor, account.id) });
  const generations = await Promise.all(page.items.map((record) => generationView(record, deps.signer)));
  return { generations, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
