// The twin's KMS (decision 062), driven with the official client through the control plane: the
// key's public half, RSA-PSS and PKCS #1 v1.5 signatures of messages and of their digests, each
// verified with the public key as any verifier would, and the errors KMS gives.
import { createHash, createPublicKey, constants, verify } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { ControlPlane } from '../../../infra/local/control-plane';
import { LocalKeys } from '../../../infra/local/emulators/kms';
import { TWIN_CREDENTIALS } from '../../../infra/local/emulators/ports';
import type { EventRouter } from '../../../infra/local/eventbridge';
import type { FunctionRuntime } from '../../../infra/local/functions';
import { Resolver, type CfnTemplate } from '../../../infra/local/template';

const template = {
  Resources: {
    SigningKey1: { Type: 'AWS::KMS::Key', Properties: { KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' } },
    DataKey1: { Type: 'AWS::KMS::Key', Properties: {} },
  },
} as unknown as CfnTemplate;

let control: ControlPlane;
let kms: KMSClient;
let keyArn: string;

beforeAll(async () => {
  const resolver = new Resolver(template);
  const keys = new LocalKeys(template, resolver);
  expect(keys.ids()).toEqual(['SigningKey1']);
  keyArn = keys.arnOf('SigningKey1')!;
  control = new ControlPlane({ events: {} as EventRouter, functions: {} as FunctionRuntime, keys });
  const endpoint = await control.listen(0);
  kms = new KMSClient({ endpoint, region: 'us-east-1', credentials: { ...TWIN_CREDENTIALS } });
});
afterAll(async () => {
  kms.destroy();
  await control.close();
});

const message = Buffer.from('the COSE payload of a manifest');
const digest = createHash('sha256').update(message).digest();

it('gives the public key as DER SubjectPublicKeyInfo, with the key spec and its signing algorithms', async () => {
  const out = await kms.send(new GetPublicKeyCommand({ KeyId: keyArn }));
  expect(out).toMatchObject({ KeyId: keyArn, KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY', SigningAlgorithms: ['RSASSA_PSS_SHA_256', 'RSASSA_PKCS1_V1_5_SHA_256'] });
  expect(createPublicKey({ key: Buffer.from(out.PublicKey!), format: 'der', type: 'spki' }).asymmetricKeyDetails?.modulusLength).toBe(2048);
});

it('signs a message and its digest with RSA-PSS (salt 32) and PKCS #1 v1.5, each verifying against the message', async () => {
  const key = createPublicKey({ key: Buffer.from((await kms.send(new GetPublicKeyCommand({ KeyId: keyArn }))).PublicKey!), format: 'der', type: 'spki' });
  for (const [MessageType, Message] of [['RAW', message], ['DIGEST', digest]] as const) {
    const pss = await kms.send(new SignCommand({ KeyId: keyArn, Message, MessageType, SigningAlgorithm: 'RSASSA_PSS_SHA_256' }));
    expect({ MessageType, ok: verify('sha256', message, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, Buffer.from(pss.Signature!)) }).toEqual({ MessageType, ok: true });
    const pkcs1 = await kms.send(new SignCommand({ KeyId: keyArn, Message, MessageType, SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' }));
    expect({ MessageType, ok: verify('sha256', message, key, Buffer.from(pkcs1.Signature!)) }).toEqual({ MessageType, ok: true });
  }
});

it('refuses what KMS refuses: an unknown key, another algorithm, a digest of the wrong length, a raw message over 4 KB', async () => {
  const sign = (input: Partial<ConstructorParameters<typeof SignCommand>[0]>) =>
    kms.send(new SignCommand({ KeyId: keyArn, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PSS_SHA_256', ...input }));
  await expect(sign({ KeyId: 'no-such-key' })).rejects.toMatchObject({ name: 'NotFoundException' });
  await expect(sign({ SigningAlgorithm: 'ECDSA_SHA_256' })).rejects.toMatchObject({ name: 'InvalidKeyUsageException' });
  await expect(sign({ Message: digest.subarray(0, 20) })).rejects.toMatchObject({ name: 'ValidationException' });
  await expect(sign({ Message: Buffer.alloc(4097), MessageType: 'RAW' })).rejects.toMatchObject({ name: 'ValidationException' });
});
