// The twin's test CA for Content Credentials (decision 062): a root made at every twin start and
// the end-entity certificate it issues for the twin's signing key, both named as Humanly TEST
// certificates. C2PA readers show images signed with them as validly signed by an untrusted signer.
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CREDENTIALS_SIGNER_ORGANIZATION, CREDENTIALS_TEST_UNIT } from '../../events/content-credentials';

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** id-kp-emailProtection: one of the extended key usages C2PA's certificate profile accepts for signing. */
const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';
const DAY_MS = 24 * 60 * 60 * 1000;

const serial = () => Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)).map((b, i) => (i === 0 ? b & 0x7f : b))).toString('hex');

/**
 * The certificate chain (PEM, end-entity first, then the root) for the RSA public key `spki` (DER
 * SubjectPublicKeyInfo): key usage digitalSignature (critical), extended key usage
 * emailProtection, valid from a day ago for a year.
 */
export async function testCertificateChain(spki: Buffer): Promise<string> {
  const now = Date.now();
  const validity = { notBefore: new Date(now - DAY_MS), notAfter: new Date(now + 365 * DAY_MS) };
  const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-256' };
  const rootKeys = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const unit = `OU=${CREDENTIALS_TEST_UNIT}, O=${CREDENTIALS_SIGNER_ORGANIZATION}`;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=Humanly local TEST root CA, ${unit}`,
    keys: rootKeys,
    signingAlgorithm,
    ...validity,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const publicKey = await subtle.importKey('spki', new Uint8Array(spki), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=Humanly Content Credentials (TEST), ${unit}`,
    issuer: root.subject,
    publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm,
    ...validity,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([EMAIL_PROTECTION]),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root),
    ],
  });
  return `${leaf.toString('pem')}\n${root.toString('pem')}\n`;
}
