import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { FOUNDING_SPOTS } from '../../../events/founding';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { foundingKeys } from '../../shared/founding-keys';
import { httpHandler, json } from '../../shared/http';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

/** Founding spots taken so far, from the counter the allocation updates (`taken < 30`). */
export async function foundingSpots(doc: DynamoDBDocumentClient, tableName: string) {
  const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.spots }));
  const taken = Math.min(Number(out.Item?.taken ?? 0), FOUNDING_SPOTS);
  return { total: FOUNDING_SPOTS, taken, left: FOUNDING_SPOTS - taken };
}

/** `GET /founding-spots` → `{ total: 30, taken, left }`. */
export const handler = httpHandler(async () => json(200, await foundingSpots(documentClient(), config.APPLICATIONS_TABLE)));
