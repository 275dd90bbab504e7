// The stores every `/me` route reads to know its caller: their account, and where they stand as
// talent (the application under their email and the catalog item it names). One schema for the
// three tables, one wiring of the stores.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { accountStore } from './store';
import { foundingStore } from '../founding';
import { talentStore } from '../catalog';

/** The tables a `/me` route's configuration names; extend it with the route's own settings. */
export const AccountTables = z.object({
  ACCOUNTS_TABLE: z.string().min(1),
  APPLICATIONS_TABLE: z.string().min(1),
  TALENT_TABLE: z.string().min(1),
});
export type AccountTables = z.infer<typeof AccountTables>;

/** The caller's account store and the stores of their standing: what `callerTalent` (or `currentAccount` and `requireAcceptedTalent`) reads. */
export function accountStores(doc: DynamoDBDocumentClient, tables: AccountTables) {
  const founding = foundingStore(doc, tables.APPLICATIONS_TABLE);
  const talent = talentStore(doc, tables.TALENT_TABLE);
  return { accounts: accountStore(doc, tables.ACCOUNTS_TABLE), standing: { founding, talent }, founding, talent };
}
