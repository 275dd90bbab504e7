// Face analyses (with their descriptors) are biometric data (docs/identity.md): encrypted with
// AES-256-GCM before they are stored, with a key of their own (the IdentityKey secret), and bound to their application
// (additional authenticated data), so a sealed file copied to another application does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { secretValue } from '../../shared/secrets';

const VERSION = 1;

/** The identity key from env IDENTITY_KEY_SECRET: 32 bytes derived from the secret's string. */
export async function identityKeyFromEnv(): Promise<Buffer> {
  const secretId = process.env.IDENTITY_KEY_SECRET;
  if (!secretId) throw new Error('IDENTITY_KEY_SECRET is not set');
  return createHash('sha256').update(`humanly-identity:${await secretValue(secretId, 'identity key')}`).digest();
}

/** version (1 byte) | IV (12) | tag (16) | ciphertext. */
export function seal(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

/** Opens what `seal` made with the same key and AAD; throws on any change. */
export function open(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < 29 || sealed[0] !== VERSION) throw new Error('not a sealed identity file');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}

export const sha256Hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
