// KMS on the twin: every AWS::KMS::Key of the template with KeyUsage SIGN_VERIFY and an RSA key
// spec, its private key held here as KMS holds it (never handed out), serving the two calls our
// functions make, Sign and GetPublicKey, in the real API's JSON shapes, through the control plane
// (AWS_ENDPOINT_URL_KMS). Sign takes a message (RAW, at most 4 KB) or its SHA-256 digest (DIGEST),
// with RSASSA_PSS_SHA_256 or RSASSA_PKCS1_V1_5_SHA_256, as KMS does for these keys.
import { constants, createHash, generateKeyPairSync, privateEncrypt, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { GetPublicKeyResponse, SignRequest, SignResponse } from '@aws-sdk/client-kms';

/** A response with its binary fields as JSON carries them: base64 text. */
type OnTheWire<T, Binary extends keyof T> = Omit<T, Binary> & Record<Binary, string>;
import { LOCAL_ACCOUNT, LOCAL_REGION, resourcesOfType, type CfnTemplate, type Resolver } from '../template';

interface LocalKey {
  logicalId: string;
  keyId: string;
  arn: string;
  keySpec: 'RSA_2048' | 'RSA_3072' | 'RSA_4096';
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const RSA_BITS = { RSA_2048: 2048, RSA_3072: 3072, RSA_4096: 4096 } as const;
const SIGNING_ALGORITHMS = ['RSASSA_PSS_SHA_256', 'RSASSA_PKCS1_V1_5_SHA_256'] as const;
/** The largest RAW message KMS signs. */
const MAX_RAW_MESSAGE = 4096;

const kmsError = (name: string, message: string) => Object.assign(new Error(message), { name });

/** MGF1 with SHA-256 (RFC 8017, B.2.1). */
function mgf1(seed: Buffer, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * 32 < length; counter++) {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(counter);
    blocks.push(createHash('sha256').update(seed).update(c).digest());
  }
  return Buffer.concat(blocks).subarray(0, length);
}

/**
 * RSASSA-PSS over a SHA-256 digest (RFC 8017, 8.1.1 with EMSA-PSS-ENCODE, 9.1.1), salt as long as
 * the digest, as KMS signs: Node signs only whole messages, so the encoding is made here and the
 * private key applied raw.
 */
function pssSignDigest(privateKey: KeyObject, digest: Buffer, modulusBits: number): Buffer {
  const emBits = modulusBits - 1;
  const emLen = Math.ceil(emBits / 8);
  const salt = randomBytes(32);
  const h = createHash('sha256').update(Buffer.alloc(8)).update(digest).update(salt).digest();
  const db = Buffer.concat([Buffer.alloc(emLen - salt.length - h.length - 2), Buffer.from([1]), salt]);
  const mask = mgf1(h, db.length);
  for (let i = 0; i < db.length; i++) db[i] ^= mask[i];
  db[0] &= 0xff >> (8 * emLen - emBits);
  const em = Buffer.concat([db, h, Buffer.from([0xbc])]);
  const k = modulusBits / 8;
  return privateEncrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.concat([Buffer.alloc(k - em.length), em]));
}

/** PKCS #1 v1.5 over a SHA-256 digest: the DigestInfo prefix, then the key's block type 1 padding. */
function pkcs1SignDigest(privateKey: KeyObject, digest: Buffer): Buffer {
  const digestInfo = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), digest]);
  return privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, digestInfo);
}

export class LocalKeys {
  private readonly keys: LocalKey[] = [];

  /** Makes each signing key's key pair and gives it its key id (its Ref) and ARN, as CloudFormation does. */
  constructor(template: CfnTemplate, resolver: Resolver) {
    for (const [logicalId, r] of resourcesOfType(template, 'AWS::KMS::Key')) {
      const props = resolver.resolve(r.Properties ?? {}) as { KeySpec?: string; KeyUsage?: string };
      if (props.KeyUsage !== 'SIGN_VERIFY' || !(String(props.KeySpec) in RSA_BITS)) continue;
      const keySpec = props.KeySpec as keyof typeof RSA_BITS;
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: RSA_BITS[keySpec] });
      const keyId = randomUUID();
      const arn = `arn:aws:kms:${LOCAL_REGION}:${LOCAL_ACCOUNT}:key/${keyId}`;
      this.keys.push({ logicalId, keyId, arn, keySpec, privateKey, publicKey });
      resolver.set(logicalId, { ref: keyId, attrs: { Arn: arn, KeyId: keyId } });
    }
  }

  /** The logical ids of the keys served. */
  ids(): string[] {
    return this.keys.map((k) => k.logicalId);
  }

  /** A key's ARN, its physical id as the functions are given it (undefined when the template has no such key). */
  arnOf(logicalId: string): string | undefined {
    return this.keys.find((k) => k.logicalId === logicalId)?.arn;
  }

  /** The public key (SPKI, DER) of the key whose logical id starts with `prefix` (undefined when none). */
  publicKeyOf(prefix: string): Buffer | undefined {
    return this.keys.find((k) => k.logicalId.startsWith(prefix))?.publicKey.export({ type: 'spki', format: 'der' });
  }

  private find(keyId: unknown): LocalKey {
    if (typeof keyId !== 'string' || keyId === '') throw kmsError('ValidationException', 'KeyId is required');
    const key = this.keys.find((k) => k.keyId === keyId || k.arn === keyId);
    if (!key) throw kmsError('NotFoundException', `Key '${keyId}' does not exist`);
    return key;
  }

  /** GetPublicKey, as KMS answers it (the key as DER SubjectPublicKeyInfo, base64 in JSON). */
  getPublicKey(body: { KeyId?: unknown }): OnTheWire<GetPublicKeyResponse, 'PublicKey'> {
    const key = this.find(body.KeyId);
    return {
      KeyId: key.arn,
      PublicKey: key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      CustomerMasterKeySpec: key.keySpec,
      KeySpec: key.keySpec,
      KeyUsage: 'SIGN_VERIFY',
      SigningAlgorithms: [...SIGNING_ALGORITHMS],
    };
  }

  /** Sign (the message or digest base64 in JSON, as the SDK sends it). */
  sign(body: { KeyId?: unknown; Message?: unknown; MessageType?: unknown; SigningAlgorithm?: unknown }): OnTheWire<SignResponse, 'Signature'> {
    const key = this.find(body.KeyId);
    const algorithm = body.SigningAlgorithm as SignRequest['SigningAlgorithm'];
    if (!SIGNING_ALGORITHMS.includes(algorithm as (typeof SIGNING_ALGORITHMS)[number])) {
      throw kmsError('InvalidKeyUsageException', `The signing algorithm ${String(algorithm)} is not valid for this key`);
    }
    if (typeof body.Message !== 'string' || body.Message === '') throw kmsError('ValidationException', 'Message is required');
    const message = Buffer.from(body.Message, 'base64');
    const type = body.MessageType ?? 'RAW';
    if (type === 'RAW' && message.length > MAX_RAW_MESSAGE) {
      throw kmsError('ValidationException', `Message must be at most ${MAX_RAW_MESSAGE} bytes; sign its digest (MessageType DIGEST)`);
    }
    if (type === 'DIGEST' && message.length !== 32) throw kmsError('ValidationException', 'Digest is invalid length for algorithm');
    if (type !== 'RAW' && type !== 'DIGEST') throw kmsError('ValidationException', `MessageType ${String(type)} is not supported`);
    const digest = type === 'DIGEST' ? message : createHash('sha256').update(message).digest();
    const signature =
      algorithm === 'RSASSA_PSS_SHA_256'
        ? type === 'RAW'
          ? sign('sha256', message, { key: key.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
          : pssSignDigest(key.privateKey, digest, RSA_BITS[key.keySpec])
        : pkcs1SignDigest(key.privateKey, digest);
    return { KeyId: key.arn, Signature: signature.toString('base64'), SigningAlgorithm: algorithm };
  }
}
