// Content Credentials' cost at delivery (decision 062): the delivery's encoding of an output with
// its XMP, and the signing added after it, per image on the twin (its KMS and Secrets Manager).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import sharp from 'sharp';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import type { TestTwin } from '../../support/twin';
import type { measure } from './signing-entry';

/** The most signing may add to an image's delivery at p95. */
export const SIGNING_TARGET_MS = 50;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

/** A 1024 x 1024 output with detail (noise), as an image model's PNG: what delivery re-encodes. */
async function modelOutput(): Promise<Buffer> {
  const side = 1024;
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width: side, height: side, channels: 3 } }).blur(1.5).png().toBuffer();
}

/** p50 and p95 of the delivery per image without and with signing, and of the signing alone, in ms. */
export async function measureSigning(twin: TestTwin, images: number) {
  // Bundled as the functions are (inside the repository, so sharp and the AWS SDK resolve).
  const bundle = path.join(process.cwd(), `.twin-build-${randomUUID()}`, 'signing.js');
  await build({ entryPoints: [path.join(__dirname, 'signing-entry.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', external: ['@aws-sdk/*', 'sharp'], logLevel: 'silent' });
  try {
    const { measure: run } = (await import(bundle)) as { measure: typeof measure };
    const { encodeMs, signMs } = await run({
      endpoint: twin.urls.control,
      region: TWIN_REGION,
      credentials: { ...TWIN_CREDENTIALS },
      keyId: twin.physicalName('ContentCredentialsKey'),
      chainSecret: twin.physicalName('ContentCredentialsChain'),
      output: await modelOutput(),
      images,
    });
    const signed = encodeMs.map((ms, i) => ms + signMs[i]);
    const stats = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
    return { images, unsigned: stats(encodeMs), signed: stats(signed), signing: stats(signMs) };
  } finally {
    fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  }
}
