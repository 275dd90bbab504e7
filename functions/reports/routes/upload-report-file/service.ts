import { randomUUID } from 'node:crypto';
import { REPORT_FILES_LIMIT_MESSAGE, REPORT_FILES_PER_NETWORK_PER_HOUR } from '../../../../events/report-values';
import type { ReportFileUploaded } from '../../../../events/reports';
import { ONE_HOUR } from '../../../shared/idempotency';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { Bucket } from '../../../shared/s3';
import { checkedFile, reportFileKey, type SentFile } from '../../files';
import { matchImage, type MatchDeps } from '../../match';
import type { ReportStore } from '../../store';

export interface UploadDeps extends MatchDeps {
  store: Pick<ReportStore, 'putFile'>;
  files: Pick<Bucket, 'write'>;
  limit: RateLimiter;
  now?: () => Date;
  newId?: () => string;
}

/**
 * `POST /reports/files` (anyone): checks the file (type, size, an image sharp reads), counts it
 * against the network's hourly limit, matches it with what we delivered, and keeps it privately
 * for the case it will be attached to. Nothing is stored for a file that is refused.
 */
export async function uploadReportFile(deps: UploadDeps, sent: SentFile, caller: { ip: string }): Promise<ReportFileUploaded> {
  const { bytes, contentType } = checkedFile(sent);
  await deps.limit([{ name: 'report-files.ip', subject: caller.ip, limit: REPORT_FILES_PER_NETWORK_PER_HOUR, windowSeconds: ONE_HOUR, message: REPORT_FILES_LIMIT_MESSAGE }]);
  const { match } = await matchImage(deps, bytes);
  const fileId = (deps.newId ?? randomUUID)();
  const key = reportFileKey(fileId);
  await deps.files.write(key, bytes, contentType === 'application/octet-stream' ? 'application/octet-stream' : contentType);
  await deps.store.putFile({ fileId, key, size: bytes.length, contentType, uploadedAt: (deps.now ?? (() => new Date()))().toISOString(), match });
  return { fileId, match };
}
