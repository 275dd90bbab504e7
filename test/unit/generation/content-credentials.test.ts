import { ExtendedKeyUsageExtension, KeyUsageFlags, KeyUsagesExtension, X509Certificate } from '@peculiar/x509';
import sharp from 'sharp';
import { PNG } from '@trustnxt/c2pa-ts/asset';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import { ManifestStore } from '@trustnxt/c2pa-ts/manifest';
import { CREDENTIALS_TEST_UNIT } from '../../../events/content-credentials';
import { withContentCredentials, type ImageCredentials } from '../../../functions/generation/steps/deliver-images/credentials';
import { ps256Signer } from '../../../functions/generation/steps/deliver-images/signer';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import { pixelHashOf } from '../../../functions/shared/pixel-hash';
import { LocalKeys } from '../../../infra/local/emulators/kms';
import { Resolver, type CfnTemplate } from '../../../infra/local/template';
import { testCertificateChain } from '../../../infra/local/test-certificate';
import { hasManifest, withOnePixelChanged } from '../../support/content-credentials';

const credentials: ImageCredentials = {
  licenseId: 'lic_abcdefghijklmnopqrstuv',
  talentId: 'zoe-ng',
  talentName: 'Zoë Ng',
  licensee: 'Ada Client',
  issuedAt: '2026-11-29T10:00:00.000Z',
  scope: 'commercial',
  licenseUrl: 'https://humanly.example/licenses/lic_abcdefghijklmnopqrstuv',
  checkUrl: 'https://humanly.example/licenses/check',
  model: 'humanly/zoe-ng',
};

/** The twin's signing key and test chain, as delivery signs with them there. */
async function twinSigner() {
  const template = { Resources: { ContentCredentialsKey1: { Type: 'AWS::KMS::Key', Properties: { KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' } } } } as unknown as CfnTemplate;
  const resolver = new Resolver(template);
  const keys = new LocalKeys(template, resolver);
  const keyId = resolver.resolve({ Ref: 'ContentCredentialsKey1' }) as string;
  const chain = await testCertificateChain(keys.publicKeyOf('ContentCredentialsKey')!);
  const signDigest = async (digest: Uint8Array) => {
    const out = keys.sign({ KeyId: keyId, Message: Buffer.from(digest).toString('base64'), MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PSS_SHA_256' });
    return Buffer.from(out.Signature, 'base64');
  };
  return { signer: ps256Signer(signDigest, chain), chain };
}

async function validate(png: Buffer) {
  const asset = new PNG(new Uint8Array(png));
  const store = ManifestStore.read(SuperBox.fromBuffer(asset.getManifestJUMBF()! as Uint8Array<ArrayBuffer>));
  const result = await store.validate(asset);
  return { store, codes: result.statusEntries.map((e) => e.code) };
}

describe('Content Credentials of a delivered image', () => {
  let unsigned: Buffer;
  let signed: Buffer;
  let chain: string;
  beforeAll(async () => {
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#369' } }).png().toBuffer();
    unsigned = await sharp(image).png().withXmp(licenseXmp(credentials)).toBuffer();
    const twin = await twinSigner();
    chain = twin.chain;
    signed = await withContentCredentials(unsigned, credentials, twin.signer);
  });

  it('the test chain names a Humanly TEST certificate for signing only', () => {
    const [leaf, root] = (chain.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []).map((pem) => new X509Certificate(pem));
    expect(leaf.subject).toContain(`OU=${CREDENTIALS_TEST_UNIT}`);
    expect(leaf.issuer).toBe(root.subject);
    const usage = leaf.getExtension(KeyUsagesExtension)!;
    expect({ critical: usage.critical, digitalSignature: Boolean(usage.usages & KeyUsageFlags.digitalSignature) }).toEqual({ critical: true, digitalSignature: true });
    expect(leaf.getExtension(ExtendedKeyUsageExtension)!.usages).toEqual(['1.3.6.1.5.5.7.3.4']);
  });

  it('signs the manifest with PS256: the signature and the data hash validate', async () => {
    expect(hasManifest(signed)).toBe(true);
    const { codes } = await validate(signed);
    expect(codes).toEqual(expect.arrayContaining(['claimSignature.validated', 'assertion.dataHash.match']));
    expect(codes).not.toEqual(expect.arrayContaining(['claimSignature.mismatch', 'assertion.dataHash.mismatch']));
  });

  it('says created by a trained model, under our license, not for AI training', async () => {
    const { store } = await validate(signed);
    const manifest = store.getActiveManifest()!;
    const labels = manifest.assertions!.assertions.map((a) => a.label);
    expect(labels).toEqual(expect.arrayContaining(['c2pa.actions.v2', 'com.humanly.license', 'c2pa.training-mining', 'cawg.training-mining', 'c2pa.hash.data']));
    const [actions] = manifest.assertions!.getActionAssertions();
    expect(actions.actions[0]).toMatchObject({
      action: 'c2pa.created',
      digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
      softwareAgent: { name: 'Humanly', version: 'humanly/zoe-ng' },
    });
  });

  it('keeps the XMP and the pixels: the license check and report matching read the same image', async () => {
    expect((await sharp(signed).metadata()).xmp!.toString('utf8')).toContain('Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"');
    expect(await pixelHashOf(signed)).toEqual(await pixelHashOf(unsigned));
  });

  it('one pixel changed under the same manifest no longer matches its data hash', async () => {
    const { codes } = await validate(await withOnePixelChanged(signed));
    expect(codes).toContain('assertion.dataHash.mismatch');
  });
});
