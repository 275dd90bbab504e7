import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  WAITLIST_FULL_MESSAGE,
  WAITLIST_SIGNED_UP,
  type EarlySignupRequest,
  type EarlySignupResponse,
  type WaitlistSignedUpV1,
} from '../../../events/waitlist';
import { ConflictError } from '../../shared/errors';
import { log } from '../../shared/log';
import { COUNTER_KEY, LIST_PARTITION, signupKey } from '../../shared/waitlist-keys';

export interface WaitlistDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  capacity: number;
  publish: (detailType: string, detail: object) => Promise<void>;
  now?: () => Date;
  /** A claim older than this was left by a crashed attempt and may be taken over. */
  staleClaimMs?: number;
}

interface SignupItem {
  pk: string;
  status: 'claimed' | 'active';
  email: string;
  position?: number;
  claimedAt: string;
  welcome?: string;
  firstName?: string;
  signupType?: string;
  newsletter: boolean;
}

const isConditionFailure = (err: unknown) =>
  err instanceof ConditionalCheckFailedException || (err as Error)?.name === 'ConditionalCheckFailedException';

/**
 * Adds an email to the waitlist, at most `capacity` distinct emails ever.
 *
 * 1. Claim the email with a conditional put, so concurrent repeats of one email cannot
 *    take two places.
 * 2. Take a place by incrementing the counter under the condition `count < capacity`: the
 *    cap is one conditional write, never a count followed by an insert.
 * 3. Activate the claim with its position, then announce `Waitlist.SignedUp`.
 * A repeat of an active email answers its existing position and stores or sends nothing.
 */
export async function signUp(deps: WaitlistDeps, req: EarlySignupRequest): Promise<EarlySignupResponse> {
  const now = deps.now ?? (() => new Date());
  const claimedAt = now().toISOString();
  const item: SignupItem = {
    pk: signupKey(req.email),
    status: 'claimed',
    email: req.email,
    claimedAt,
    firstName: req.firstName || undefined,
    signupType: req.signupType,
    newsletter: req.newsletter ?? true,
  };

  try {
    await deps.doc.send(
      new PutCommand({ TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const existing = await readSignup(deps, req.email);
    if (existing?.status === 'active' && existing.position) return repeatOf(deps, existing);
    if (!existing || !(await takeOverStaleClaim(deps, existing, claimedAt, now()))) {
      throw new ConflictError('A signup for this email is already in progress. Please try again in a moment.');
    }
  }

  let position: number;
  try {
    const out = await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: COUNTER_KEY },
        UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :capacity',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':capacity': deps.capacity },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    position = Number(out.Attributes?.count);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Full: release the claim so the email can try again if capacity is raised.
    await deps.doc.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: { pk: item.pk },
        ConditionExpression: '#status = :claimed AND claimedAt = :claimedAt',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claimed': 'claimed', ':claimedAt': claimedAt },
      }),
    ).catch((e) => {
      if (!isConditionFailure(e)) throw e;
    });
    throw new ConflictError(WAITLIST_FULL_MESSAGE);
  }

  const signedUpAt = now().toISOString();
  await deps.doc.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: { pk: item.pk },
      UpdateExpression:
        'SET #status = :active, #position = :position, signedUpAt = :at, gsi1pk = :list, gsi1sk = :position, welcome = :queued',
      ExpressionAttributeNames: { '#status': 'status', '#position': 'position' },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':position': position,
        ':at': signedUpAt,
        ':list': LIST_PARTITION,
        ':queued': 'queued',
      },
    }),
  );

  await announce(deps, { ...item, status: 'active', position }, signedUpAt);
  return { success: true, position, alreadySignedUp: false };
}

async function readSignup(deps: WaitlistDeps, email: string) {
  const out = await deps.doc.send(
    new GetCommand({ TableName: deps.tableName, Key: { pk: signupKey(email) }, ConsistentRead: true }),
  );
  return out.Item as (SignupItem & { signedUpAt?: string }) | undefined;
}

/** A repeat signup: nothing new, unless announcing the first one had failed. */
async function repeatOf(deps: WaitlistDeps, existing: SignupItem & { signedUpAt?: string }) {
  if (existing.welcome === 'event-failed') {
    await announce(deps, existing, existing.signedUpAt ?? existing.claimedAt);
  }
  return { success: true as const, position: existing.position!, alreadySignedUp: true };
}

async function takeOverStaleClaim(deps: WaitlistDeps, existing: SignupItem, claimedAt: string, now: Date) {
  const staleMs = deps.staleClaimMs ?? 60_000;
  if (existing.status !== 'claimed' || now.getTime() - Date.parse(existing.claimedAt) < staleMs) return false;
  try {
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: existing.pk },
        UpdateExpression: 'SET claimedAt = :mine',
        ConditionExpression: '#status = :claimed AND claimedAt = :theirs',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':mine': claimedAt, ':claimed': 'claimed', ':theirs': existing.claimedAt },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

async function announce(deps: WaitlistDeps, item: SignupItem, signedUpAt: string) {
  const detail: WaitlistSignedUpV1 = {
    version: 1,
    email: item.email,
    firstName: item.firstName,
    position: item.position!,
    signupType: item.signupType,
    newsletter: item.newsletter,
    signedUpAt,
  };
  try {
    await deps.publish(WAITLIST_SIGNED_UP, detail);
  } catch (err) {
    // The person is on the list either way; a repeat signup announces again.
    log.error('could not announce waitlist signup', err, { position: item.position });
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: item.pk },
        UpdateExpression: 'SET welcome = :failed',
        ExpressionAttributeValues: { ':failed': 'event-failed' },
      }),
    );
  }
}
