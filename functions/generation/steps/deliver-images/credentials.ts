// Content Credentials (C2PA) in every delivered image (docs/generation.md#content-credentials,
// decision 062): a manifest that says the image was created by a trained model, under which
// license, and that it may not be used to train AI, signed so that any C2PA reader can tell it
// came from us and that neither its pixels nor its manifest changed since.
import { PNG } from '@trustnxt/c2pa-ts/asset';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import { CBORBox } from '@trustnxt/c2pa-ts/jumbf';
import {
  ActionAssertion,
  ActionType,
  Assertion,
  ClaimVersion,
  DataHashAssertion,
  ManifestStore,
  TrainingAndDataMiningAssertion,
  TrainingAndDataMiningChoice,
  CAWGTrainingAndDataMiningKey,
  TrainingAndDataMiningKey,
  DigitalSourceType,
} from '@trustnxt/c2pa-ts/manifest';
import { randomUUID } from 'node:crypto';
import { CREDENTIALS_LICENSE_LABEL, CREDENTIALS_SOFTWARE_AGENT, type CredentialsLicense } from '../../../../events/content-credentials';

/** What the manifest of one delivered image says. */
export interface ImageCredentials extends CredentialsLicense {
  /** The talent's model that made the image, as the generation ran it (Replicate model or version). */
  model?: string;
}

/** Our license assertion (`com.humanly.license`): CBOR of the license as its public page shows it. */
class LicenseAssertion extends Assertion {
  label = CREDENTIALS_LICENSE_LABEL;
  // Every CBOR assertion carries the same JUMBF type; the library names it on its own CBOR assertions.
  uuid = new TrainingAndDataMiningAssertion().uuid;

  constructor(private readonly license: CredentialsLicense) {
    super();
  }

  readContentFromJUMBF(): void {
    throw new Error('Our license assertion is written here, never read');
  }

  generateJUMBFBoxForContent(): CBORBox {
    const box = new CBORBox();
    box.content = { ...this.license };
    return box;
  }
}

/** Neither AI training nor data mining, in C2PA's and in the Creator Assertions Working Group's words. */
function noTraining(cawg: boolean): TrainingAndDataMiningAssertion {
  const assertion = new TrainingAndDataMiningAssertion(cawg);
  const keys = cawg ? Object.values(CAWGTrainingAndDataMiningKey) : Object.values(TrainingAndDataMiningKey);
  for (const key of keys) assertion.entries[key] = { choice: TrainingAndDataMiningChoice.NotAllowed };
  return assertion;
}

/**
 * The PNG with a signed C2PA manifest (in a `caBX` chunk before its image data): `c2pa.actions.v2`
 * with `c2pa.created` by a trained model (IPTC `trainedAlgorithmicMedia`) and our software agent,
 * our license assertion, the training-and-mining assertions (C2PA and CAWG) forbidding every AI
 * use, and the data hash that binds them to every other byte of the file. The pixels and the XMP
 * stay as they were.
 */
export async function withContentCredentials(png: Buffer, credentials: ImageCredentials, signer: Signer): Promise<Buffer> {
  const asset = new PNG(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
  const store = new ManifestStore();
  const manifest = store.createManifest({
    claimVersion: ClaimVersion.V2,
    assetFormat: 'image/png',
    instanceID: `xmp:iid:${randomUUID()}`,
    defaultHashAlgorithm: 'SHA-256',
    signer,
  });
  const { model, ...license } = credentials;
  const actions = new ActionAssertion();
  actions.actions.push({
    action: ActionType.C2paCreated,
    digitalSourceType: DigitalSourceType.TrainedAlgorithmicMedia,
    softwareAgent: { name: CREDENTIALS_SOFTWARE_AGENT, ...(model ? { version: model } : {}) },
    description: `Made by AI of ${license.talentName} with their approved model, under license ${license.licenseId}`,
  });
  manifest.addAssertion(actions);
  manifest.addAssertion(new LicenseAssertion(license));
  manifest.addAssertion(noTraining(false));
  manifest.addAssertion(noTraining(true));
  const hash = DataHashAssertion.create('SHA-256');
  manifest.addAssertion(hash);

  await asset.ensureManifestSpace(store.measureSize());
  await hash.updateWithAsset(asset);
  await manifest.sign(signer);
  await asset.writeManifestJUMBF(store.getBytes());
  return Buffer.from(await asset.getDataRange());
}
