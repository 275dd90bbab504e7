import { S3Client } from '@aws-sdk/client-s3';

/*
 * One S3 client per container. Checksums only when S3 requires them: the SDK's default adds a
 * CRC32 of an empty body to presigned PUT URLs, which a browser's upload of the real file then
 * fails. The endpoint comes from AWS_ENDPOINT_URL_S3 (the local twin's emulator).
 */
let s3: S3Client | undefined;
export function s3Client(): S3Client {
  s3 ??= new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return s3;
}
