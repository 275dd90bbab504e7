import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
  /** Attempts before giving up under contention (default 200); the step is then retried. */
  maxAttempts?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

/** Thrown when many acceptances compete for the counter for too long; the state machine retries. */
export class SpotContentionError extends Error {
  name = 'SpotContention';
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Gives the application a founding spot if one is left, exactly once: one transaction both
 * moves the counter `SPOTS/FOUNDING.taken` from n to n+1 (only while n < total) and creates
 * `SPOT#{applicationId}` with number n+1 (only if it does not exist). Reading n first and
 * requiring `taken = n` in the transaction is what lets the spot carry its number; a concurrent
 * acceptance that moved the counter first cancels ours, and we read and try again. A retried
 * step finds its SPOT# item and gets the same spot back; nobody can push the counter past total.
 */
export async function allocateFoundingSpot(deps: AllocateDeps, applicationId: string): Promise<SpotAllocation> {
  const total = deps.total ?? FOUNDING_SPOTS;
  const sleep = deps.sleep ?? defaultSleep;
  const spotKey = foundingKeys.spot(applicationId);
  for (let attempt = 0; attempt < (deps.maxAttempts ?? 200); attempt++) {
    const mine = await deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: spotKey, ConsistentRead: true }));
    if (mine.Item) return { founding: true, spotNumber: mine.Item.number as number };
    const counter = await deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: foundingKeys.spots, ConsistentRead: true }));
    const taken = (counter.Item?.taken as number | undefined) ?? 0;
    if (taken >= total) return { founding: false };
    const number = taken + 1;
    try {
      await deps.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: deps.tableName,
                Key: foundingKeys.spots,
                UpdateExpression: 'SET taken = :next, updatedAt = :at',
                ConditionExpression: '(attribute_not_exists(taken) AND :taken = :zero) OR (taken = :taken AND taken < :total)',
                ExpressionAttributeValues: { ':next': number, ':taken': taken, ':zero': 0, ':total': total, ':at': (deps.now ?? (() => new Date()))().toISOString() },
              },
            },
            {
              Put: {
                TableName: deps.tableName,
                Item: { ...spotKey, applicationId, number, allocatedAt: (deps.now ?? (() => new Date()))().toISOString() },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return { founding: true, spotNumber: number };
    } catch (err) {
      if ((err as Error).name !== 'TransactionCanceledException' && (err as Error).name !== 'TransactionConflictException') throw err;
      // Our SPOT# exists (a concurrent run of this step), or the counter moved, or the items
      // were locked by another transaction: read again. Jitter spreads competing acceptances.
      await sleep(Math.floor(Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5))));
    }
  }
  throw new SpotContentionError(`could not allocate a spot for ${applicationId} under contention`);
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
