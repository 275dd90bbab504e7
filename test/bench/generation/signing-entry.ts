// Bundled by test/bench/generation/signing.ts (c2pa-ts ships ES modules only, as the functions
// bundle it): the delivery's encoding of one output, without and with its Content Credentials,
// signed through the twin's KMS with the chain from its Secrets Manager, as DeliverImages does.
import { performance } from 'node:perf_hooks';
import { KMSClient } from '@aws-sdk/client-kms';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import sharp from 'sharp';
import { withContentCredentials } from '../../../functions/generation/steps/deliver-images/credentials';
import { kmsDigestSigner, ps256Signer } from '../../../functions/generation/steps/deliver-images/signer';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';

export interface SigningRun {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  keyId: string;
  chainSecret: string;
  output: Buffer;
  images: number;
}

/** Per image, in ms: the encoding with XMP alone, and the signing added after it. */
export async function measure(run: SigningRun): Promise<{ encodeMs: number[]; signMs: number[] }> {
  const aws = { endpoint: run.endpoint, region: run.region, credentials: run.credentials };
  const chain = (await new SecretsManagerClient(aws).send(new GetSecretValueCommand({ SecretId: run.chainSecret }))).SecretString!;
  const signer = ps256Signer(kmsDigestSigner(new KMSClient(aws), run.keyId), chain);
  const encodeMs: number[] = [];
  const signMs: number[] = [];
  for (let i = -1; i < run.images; i++) {
    const licenseId = `lic_bench${String(i + 1).padStart(17, '0')}`;
    const license = { licenseId, talentId: 'maya-chen', talentName: 'Maya Chen', licenseUrl: `https://humanly.example/licenses/${licenseId}` };
    const t0 = performance.now();
    const png = await sharp(run.output).png().withXmp(licenseXmp(license)).toBuffer();
    const t1 = performance.now();
    await withContentCredentials(png, { ...license, licensee: 'Bench Client', issuedAt: new Date().toISOString(), scope: 'commercial', checkUrl: 'https://humanly.example/licenses/check' }, signer);
    const t2 = performance.now();
    // The first image warms the clients and the code up: not counted.
    if (i >= 0) {
      encodeMs.push(t1 - t0);
      signMs.push(t2 - t1);
    }
  }
  return { encodeMs, signMs };
}
