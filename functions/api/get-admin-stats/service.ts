import { GetCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emptyStatusCounts, type AdminStats } from '../../../events/admin';
import { APPLICATION_STATUSES, FOUNDING_SPOTS, type ApplicationStatus } from '../../../events/founding-values';
import { foundingKeys } from '../../stores/founding-keys';
import { COUNTER_KEY, LIST_PARTITION } from '../../shared/waitlist-keys';

export interface StatsDeps {
  doc: DynamoDBDocumentClient;
  waitlistTable: string;
  waitlistCapacity: number;
  applicationsTable: string;
  messagesTable: string;
}

/** Every page of a query or scan, counted or collected. */
async function* pages(doc: DynamoDBDocumentClient, make: (start?: Record<string, unknown>) => QueryCommand | ScanCommand) {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(make(start) as QueryCommand);
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}

/** The dashboard's figures. Each is read from where it is kept; none is a second copy. */
export async function adminStats(deps: StatsDeps): Promise<AdminStats> {
  const [waitlist, spots, applications, failedWaitlist, failedContact] = await Promise.all([
    deps.doc.send(new GetCommand({ TableName: deps.waitlistTable, Key: { pk: COUNTER_KEY }, ConsistentRead: true })),
    deps.doc.send(new GetCommand({ TableName: deps.applicationsTable, Key: foundingKeys.spots, ConsistentRead: true })),
    applicationCounts(deps),
    countOf(deps.doc, (start) =>
      new QueryCommand({
        TableName: deps.waitlistTable,
        IndexName: 'byPosition',
        KeyConditionExpression: 'gsi1pk = :list',
        FilterExpression: 'welcome = :failed',
        ExpressionAttributeValues: { ':list': LIST_PARTITION, ':failed': 'failed' },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    ),
    countOf(deps.doc, (start) =>
      new ScanCommand({
        TableName: deps.messagesTable,
        FilterExpression: 'begins_with(pk, :message) AND (teamEmail = :failed OR ackEmail = :failed)',
        ExpressionAttributeValues: { ':message': 'MESSAGE#', ':failed': 'failed' },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    ),
  ]);
  return {
    waitlist: { count: Number(waitlist.Item?.count ?? 0), capacity: deps.waitlistCapacity },
    founding: { total: FOUNDING_SPOTS, taken: Number(spots.Item?.taken ?? 0) },
    applications: applications.summary,
    failedEmails: {
      total: applications.failedEmails + failedWaitlist + failedContact,
      applications: applications.failedEmails,
      waitlist: failedWaitlist,
      contact: failedContact,
    },
  };
}

async function countOf(doc: DynamoDBDocumentClient, make: (start?: Record<string, unknown>) => QueryCommand | ScanCommand) {
  let count = 0;
  for await (const page of pages(doc, make)) count += page.Count ?? 0;
  return count;
}

/** Applications by status, the oldest one waiting for review, and failed application emails (index `byList`, oldest first). */
async function applicationCounts(deps: StatsDeps) {
  const byStatus = emptyStatusCounts();
  let total = 0;
  let failedEmails = 0;
  let oldestWaitingSince: string | undefined;
  for await (const page of pages(deps.doc, (start) =>
    new QueryCommand({
      TableName: deps.applicationsTable,
      IndexName: 'byList',
      KeyConditionExpression: 'gsi1pk = :list',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':list': foundingKeys.listPk },
      ProjectionExpression: '#status, submittedAt, confirmationEmail',
      ExclusiveStartKey: start,
    }),
  )) {
    for (const item of page.Items ?? []) {
      total += 1;
      const status = item.status as ApplicationStatus;
      if ((APPLICATION_STATUSES as readonly string[]).includes(status)) byStatus[status] += 1;
      if (item.confirmationEmail === 'failed') failedEmails += 1;
      if (status === 'pending_review' && typeof item.submittedAt === 'string') {
        if (!oldestWaitingSince || item.submittedAt < oldestWaitingSince) oldestWaitingSince = item.submittedAt;
      }
    }
  }
  return {
    summary: { total, byStatus, waitingForReview: byStatus.pending_review, ...(oldestWaitingSince ? { oldestWaitingSince } : {}) },
    failedEmails,
  };
}
