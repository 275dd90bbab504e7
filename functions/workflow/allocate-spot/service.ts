import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { FOUNDING_SPOTS } from '../../../events/founding-values';
import { foundingKeys } from '../../shared/founding-keys';
import { addHistory, getApplication, nowOf, updateApplication, type StoreDeps } from '../../shared/founding-store';
import { log } from '../../shared/log';

export interface SpotAllocation {
  founding: boolean;
  spotNumber?: number;
}

export interface AllocateDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** Founding spots in all (default FOUNDING_SPOTS). */
  total?: number;
  now?: () => Date;
}

/** The counter item's attribute naming the spot an application holds. */
export const holderAttribute = (applicationId: string) => `spot_${applicationId}`;

/**
 * Gives the application a founding spot if one is left, exactly once, in one conditional
 * UpdateItem on the counter `SPOTS/FOUNDING`:
 *
 *   SET taken = if_not_exists(taken, 0) + 1, spot_{id} = if_not_exists(taken, 0) + 1
 *   IF attribute_not_exists(spot_{id}) AND (attribute_not_exists(taken) OR taken < 30)
 *
 * Both right-hand sides read the item as it was, so the application's number is the new count,
 * recorded atomically with it: no spot can be taken without its holder, none twice, and the
 * counter never passes the total. Writes to one item are serialised by DynamoDB, so 200
 * simultaneous acceptances need no retry loop (a transaction over the counter would make them
 * conflict and retry). When the condition fails, the counter says which case it was: we hold a
 * spot already (a retried step), or none is left. `SPOT#{id}` is then written from the counter
 * (idempotent) for readers that look an application's spot up by its own key.
 */
export async function allocateFoundingSpot(deps: AllocateDeps, applicationId: string): Promise<SpotAllocation> {
  const total = deps.total ?? FOUNDING_SPOTS;
  const names = { '#holder': holderAttribute(applicationId) };
  let number: number | undefined;
  try {
    const out = await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: foundingKeys.spots,
        UpdateExpression: 'SET taken = if_not_exists(taken, :zero) + :one, #holder = if_not_exists(taken, :zero) + :one, updatedAt = :at',
        ConditionExpression: 'attribute_not_exists(#holder) AND (attribute_not_exists(taken) OR taken < :total)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':total': total, ':at': (deps.now ?? (() => new Date()))().toISOString() },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    number = out.Attributes?.[names['#holder']] as number | undefined;
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    const counter = await deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: foundingKeys.spots, ConsistentRead: true }));
    number = counter.Item?.[names['#holder']] as number | undefined;
    if (number === undefined) return { founding: false };
  }
  if (typeof number !== 'number') throw new Error(`spot allocation for ${applicationId} returned no number`);
  await deps.doc.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: { ...foundingKeys.spot(applicationId), applicationId, number, allocatedAt: (deps.now ?? (() => new Date()))().toISOString() },
    }),
  );
  return { founding: true, spotNumber: number };
}

/**
 * Workflow step AllocateSpot: founding applications compete for a founding spot; accepted
 * applications of the standard program, and founding ones once the spots are gone, become
 * standard talent. Records the outcome on the application.
 */
export async function allocateSpot(deps: AllocateDeps, applicationId: string): Promise<SpotAllocation> {
  const store: StoreDeps = { doc: deps.doc, tableName: deps.tableName, now: deps.now };
  const app = await getApplication(store, applicationId);
  if (app.royaltyPlan !== undefined) {
    // Decided by an earlier run of this step.
    return app.founding ? { founding: true, spotNumber: app.spotNumber } : { founding: false };
  }
  const allocation = app.program === 'founding' ? await allocateFoundingSpot(deps, applicationId) : { founding: false };
  await updateApplication(store, applicationId, {
    founding: allocation.founding,
    spotNumber: allocation.spotNumber,
    royaltyPlan: allocation.founding ? 'founding-35' : 'standard-tiers',
    spotDecidedAt: nowOf(store).toISOString(),
  });
  await addHistory(store, applicationId, 'spot allocated', {
    note: allocation.founding
      ? `founding spot ${allocation.spotNumber} of ${deps.total ?? FOUNDING_SPOTS}`
      : app.program === 'founding'
        ? 'no founding spot left: standard talent'
        : 'standard talent',
  });
  log.info('spot decided', { applicationId, founding: allocation.founding, spotNumber: allocation.spotNumber });
  return allocation;
}
