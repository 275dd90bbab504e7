/**
 * Founding upload benchmark on the twin: 80 photos of 8 MB uploaded the way the browser does
 * (URLs from POST /founding-uploads, presigned PUTs, BROWSER_UPLOAD_CONCURRENCY at a time),
 * beside raw SDK PutObject calls of the same files to the same S3 emulator in the same run,
 * then the time the workflow's validation takes for those 80 photos; then the proof of person:
 * 80 photos of one person's face (12 megapixels, made from the images inside @vladmandic/human)
 * validated and face-checked as the check-faces trigger does, with the model's cold start.
 *
 *   npm run bench:upload [-- --photos 80 --mb 8 --distinct 4]
 *   npm run bench:upload -- --quick    (3 small photos; fails unless every photo is accepted: CI runs it)
 *
 * Prints figures only: the machine is shared, so compare the ratio, not absolute times.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { BROWSER_UPLOAD_CONCURRENCY, type FoundingUploadResponse } from '../../../events/founding';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { s3Bucket } from '../../../functions/shared/s3';
import { validateObjects } from '../../../functions/founding/photos/validate';
import { analyzePhoto, assessSet, loadFaceModel, type SetPhoto } from '../../../functions/founding/faces';
import { personSet } from '../../support/face-photos';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number, quick: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : QUICK ? quick : fallback;
};
const PHOTOS = arg('photos', 80, 3);
const PHOTO_BYTES = Math.round(arg('mb', 8, 0) * 1024 * 1024);
/** Distinct images generated (noise JPEGs are slow to encode); the rest are copies under other keys. */
const DISTINCT = arg('distinct', 4, 1);
/** Photo width in pixels (4:3); quick mode stays above the validation's minimum side. */
const WIDTH = arg('width', 4000, 1024);
const RATIO_TARGET = 0.8;
const VALIDATE_TARGET_S = 30;
/** 80 photos validated with their face checks (issue "Proof of person"). */
const FACES_TARGET_S = 60;

/** A noise JPEG (hard to compress, like a photo; 12 megapixels by default), padded after its end marker to `bytes`. */
async function photo(seed: number, bytes: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: WIDTH, height: Math.round((WIDTH * 3) / 4), channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 100 + seed * 7, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
  if (jpeg.length >= bytes) return jpeg;
  return Buffer.concat([jpeg, Buffer.alloc(bytes - jpeg.length)]);
}

/** Runs the tasks `concurrency` at a time. */
async function pool<T>(items: T[], concurrency: number, task: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await task(items[i], i);
      }
    }),
  );
}

const mbps = (bytes: number, ms: number) => bytes / 1024 / 1024 / (ms / 1000);

async function main() {
  console.log(`Generating ${DISTINCT} distinct ${PHOTO_BYTES / 1024 / 1024} MB photos for ${PHOTOS} uploads...`);
  const distinct = await Promise.all(Array.from({ length: DISTINCT }, (_, i) => photo(i, PHOTO_BYTES)));
  const files = Array.from({ length: PHOTOS }, (_, i) => distinct[i % DISTINCT]);
  const totalBytes = files.reduce((n, f) => n + f.length, 0);

  const twin = await benchTwin();
  try {
    const bucket = twin.physicalName('FoundingPhotos');
    const s3 = new S3Client({
      endpoint: twin.urls.s3,
      region: TWIN_REGION,
      credentials: { ...TWIN_CREDENTIALS },
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });

    // Warm both paths once so neither pays first-connection costs in the measurement.
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'bench/warm.jpg', Body: distinct[0], ContentType: 'image/jpeg' }));

    const email = `bench.${Date.now()}@example.com`;
    const presignedStart = performance.now();
    const res = await fetch(`${twin.urls.api}/founding-uploads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, files: files.map((f, i) => ({ name: `photo-${i + 1}.jpg`, type: 'image/jpeg', size: f.length })) }),
    });
    if (res.status !== 200) throw new Error(`POST /founding-uploads answered ${res.status}: ${await res.text()}`);
    const answer = (await res.json()) as FoundingUploadResponse;
    const urlsMs = performance.now() - presignedStart;
    await pool(answer.uploads, BROWSER_UPLOAD_CONCURRENCY, async (upload, i) => {
      const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(files[i]) });
      if (put.status !== 200) throw new Error(`presigned PUT answered ${put.status}: ${await put.text()}`);
    });
    const presignedMs = performance.now() - presignedStart;

    const rawStart = performance.now();
    await pool(files, BROWSER_UPLOAD_CONCURRENCY, async (body, i) => {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `bench/raw/${i}.jpg`, Body: body, ContentType: 'image/jpeg', ContentLength: body.length }));
    });
    const rawMs = performance.now() - rawStart;
    await twin.idle();

    const validateStart = performance.now();
    const outcome = await validateObjects({ storage: s3Bucket(bucket, s3) }, 'app_benchbenchbenchbench', answer.uploads.map((u) => u.key));
    const validateMs = performance.now() - validateStart;

    const presignedRate = mbps(totalBytes, presignedMs);
    const rawRate = mbps(totalBytes, rawMs);
    const ratio = presignedRate / rawRate;
    const totalMb = (totalBytes / 1024 / 1024).toFixed(0);
    console.log('');
    console.log(`Upload of ${PHOTOS} photos (${totalMb} MB), ${BROWSER_UPLOAD_CONCURRENCY} at a time:`);
    console.log(`  presigned (POST /founding-uploads ${urlsMs.toFixed(0)} ms + PUTs): ${(presignedMs / 1000).toFixed(2)} s, ${presignedRate.toFixed(1)} MB/s`);
    console.log(`  presigned PUTs alone: ${((presignedMs - urlsMs) / 1000).toFixed(2)} s, ${mbps(totalBytes, presignedMs - urlsMs).toFixed(1)} MB/s`);
    console.log(`  raw SDK PutObject, same emulator:                 ${(rawMs / 1000).toFixed(2)} s, ${rawRate.toFixed(1)} MB/s`);
    console.log(`  ratio presigned/raw: ${ratio.toFixed(2)} (target >= ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'ok' : 'BELOW TARGET'}`);
    console.log(`Validation of ${PHOTOS} photos (workflow's validateObjects, S3 on the twin): ${(validateMs / 1000).toFixed(1)} s`);
    console.log(`  accepted ${outcome.validCount}, refused ${outcome.rejectedCount} (target < ${VALIDATE_TARGET_S} s) ${validateMs / 1000 < VALIDATE_TARGET_S ? 'ok' : 'ABOVE TARGET'}`);
    if (QUICK && outcome.validCount !== PHOTOS) throw new Error(`validation accepted ${outcome.validCount} of ${PHOTOS} photos`);

    // The proof of person: photos of a face, as large as an applicant's, validated then checked.
    const people = PHOTOS <= 40 ? await personSet(PHOTOS) : [...(await personSet(40, 0)), ...(await personSet(PHOTOS - 40, 1))];
    const faces = await Promise.all(people.map((p) => sharp(p).resize({ width: WIDTH }).jpeg({ quality: 90 }).toBuffer()));
    const faceKeys = faces.map((_, i) => `bench/faces/${i}.jpg`);
    await pool(faces, BROWSER_UPLOAD_CONCURRENCY, async (body, i) => {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: faceKeys[i], Body: body, ContentType: 'image/jpeg' }));
    });
    const storage = s3Bucket(bucket, s3);
    const facesStart = performance.now();
    const faceOutcome = await validateObjects({ storage }, 'app_benchfacesbenchfaces', faceKeys);
    const faceValidateMs = performance.now() - facesStart;
    const { loadMs } = await loadFaceModel();
    const checkStart = performance.now();
    const analyses: SetPhoto[] = [];
    for (const r of faceOutcome.results.filter((x) => x.accepted)) {
      analyses.push({ id: String(r.index), analysis: await analyzePhoto(await storage.read(`applications/app_benchfacesbenchfaces/photos/${r.index}.jpg`)) });
    }
    const assessment = assessSet(analyses);
    const checkMs = performance.now() - checkStart;
    const totalS = (performance.now() - facesStart) / 1000;
    console.log(`Proof of person: ${faces.length} photos of a face (${WIDTH} px wide), validated then face-checked:`);
    console.log(`  validation ${(faceValidateMs / 1000).toFixed(1)} s + model cold start ${(loadMs / 1000).toFixed(2)} s + face checks ${(checkMs / 1000).toFixed(1)} s (${(checkMs / Math.max(1, analyses.length)).toFixed(0)} ms a photo)`);
    console.log(`  total ${totalS.toFixed(1)} s, beside validation alone of the noise photos above ${(validateMs / 1000).toFixed(1)} s (target < ${FACES_TARGET_S} s) ${totalS < FACES_TARGET_S ? 'ok' : 'ABOVE TARGET'}`);
    console.log(`  usable ${assessment.summary.usable} of ${assessment.summary.total}`);
    if (QUICK && assessment.summary.total !== faces.length) throw new Error(`face checks read ${assessment.summary.total} of ${faces.length} photos`);
  } finally {
    await twin.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
