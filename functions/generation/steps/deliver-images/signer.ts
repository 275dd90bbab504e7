// The signer of Content Credentials (decision 062): RSA-PSS with SHA-256 (COSE PS256) by a key
// that never leaves AWS KMS, and the certificate chain that names it (PEM, end-entity first).
import { createHash } from 'node:crypto';
import { type KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { X509Certificate } from '@peculiar/x509';
import { CoseAlgorithmIdentifier, type Signer } from '@trustnxt/c2pa-ts/cose';

/**
 * A C2PA signer whose signatures come from `signDigest` (a SHA-256 digest in, an RSASSA-PSS
 * signature out): the payload is hashed here, so a KMS key signs it whatever its size (KMS signs a
 * message of at most 4 KB, and the COSE payload carries the certificate chain).
 */
export function ps256Signer(signDigest: (digest: Uint8Array) => Promise<Uint8Array>, chainPem: string): Signer {
  const certificates = chainPem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  if (certificates.length === 0) throw new Error('The signing certificate chain holds no PEM certificate');
  const [certificate, ...chain] = certificates.map((pem) => new X509Certificate(pem));
  return {
    algorithm: CoseAlgorithmIdentifier.PS256,
    certificate,
    chainCertificates: chain,
    sign: (payload) => signDigest(createHash('sha256').update(payload).digest()),
  };
}

/** A PEM chain in the secret: anything else (the random value a new stack's secret holds) is no chain yet. */
export const holdsCertificate = (text: string) => text.includes('-----BEGIN CERTIFICATE-----');

/** Signs a SHA-256 digest with a KMS key (RSASSA_PSS_SHA_256): the key never leaves KMS. */
export function kmsDigestSigner(kms: Pick<KMSClient, 'send'>, keyId: string): (digest: Uint8Array) => Promise<Uint8Array> {
  return async (digest) => {
    const out = await kms.send(new SignCommand({ KeyId: keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PSS_SHA_256' }));
    if (!out.Signature) throw new Error('KMS answered no signature');
    return out.Signature;
  };
}
