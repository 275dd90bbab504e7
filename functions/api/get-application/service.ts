import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ADMIN_PHOTO_URL_TTL_SECONDS, type ApplicationDetail } from '../../../events/founding';
import { toDetail } from '../../shared/application-view';
import { NotFoundError } from '../../shared/errors';
import { APPLICATION_ID_PATTERN, foundingKeys, photoKey, thumbnailKey } from '../../shared/founding-keys';

export interface GetApplicationDeps {
  doc: DynamoDBDocumentClient;
  s3: S3Client;
  tableName: string;
  bucketName: string;
}

/** One application with its history and short-lived URLs of its accepted photos and thumbnails. */
export async function getApplication(deps: GetApplicationDeps, id: string): Promise<ApplicationDetail> {
  if (!APPLICATION_ID_PATTERN.test(id)) throw new NotFoundError('No application with this id.');
  const [app, history] = await Promise.all([
    deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: foundingKeys.application(id), ConsistentRead: true })),
    queryAll(deps, id),
  ]);
  if (!app.Item) throw new NotFoundError('No application with this id.');

  const sign = (key: string) =>
    getSignedUrl(deps.s3, new GetObjectCommand({ Bucket: deps.bucketName, Key: key }), { expiresIn: ADMIN_PHOTO_URL_TTL_SECONDS });
  const accepted = ((app.Item.photoResults ?? []) as ApplicationDetail['photoResults']).filter((p) => p.accepted && p.index !== undefined);
  const photos = await Promise.all(
    accepted.map(async (p) => ({
      index: p.index!,
      width: p.width ?? 0,
      height: p.height ?? 0,
      thumbnailUrl: await sign(thumbnailKey(id, p.index!)),
      url: await sign(photoKey(id, p.index!)),
    })),
  );
  return toDetail(app.Item, history, photos);
}

async function queryAll(deps: GetApplicationDeps, id: string): Promise<ApplicationDetail['history']> {
  const entries: ApplicationDetail['history'] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.doc.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)',
        ExpressionAttributeValues: { ':pk': foundingKeys.applicationPk(id), ':history': 'HISTORY#' },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      entries.push({ at: item.at, event: item.event, ...(item.by ? { by: item.by } : {}), ...(item.note ? { note: item.note } : {}) });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return entries;
}
