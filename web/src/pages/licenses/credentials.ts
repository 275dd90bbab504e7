// Reading a file's Content Credentials in the browser with the Content Authenticity Initiative's
// own reader (decision 062). The reader (WASM, several MB) loads only when a file is chosen on
// /verify, never with the page.
import type { C2paSdk } from '@contentauth/c2pa-web/inline';
import { CREDENTIALS_LICENSE_LABEL, CREDENTIALS_SIGNER_ORGANIZATION, type CredentialsLicense } from '../../../../events/content-credentials';
import { IPTC_TRAINED_ALGORITHMIC_MEDIA } from '../../../../events/generation-values';

/** What the reader found in a file. */
export type CredentialsReading =
  | { kind: 'none' }
  | {
      kind: 'found';
      /** The signature and every hash check out (`Valid`, or `Trusted` with a trust list). */
      valid: boolean;
      /** Signed by our key (the issuer is Humanly and our license assertion is there). */
      ours: boolean;
      /** Signed with a test certificate (the twin's). */
      test: boolean;
      /** Who signed, as the certificate names them. */
      signer: string;
      /** `c2pa.created` by a trained model. */
      createdByAi: boolean;
      license?: CredentialsLicense;
    };

interface Assertion {
  label: string;
  data?: unknown;
}

let sdk: Promise<C2paSdk> | undefined;
const reader = () => {
  sdk ??= import('@contentauth/c2pa-web/inline').then((m) => m.createC2pa());
  sdk.catch(() => (sdk = undefined));
  return sdk;
};

const createdByAi = (assertions: Assertion[]) =>
  assertions.some(
    (a) =>
      /^c2pa\.actions(\.v2)?$/.test(a.label) &&
      ((a.data as { actions?: Array<{ action?: string; digitalSourceType?: string }> })?.actions ?? []).some(
        (action) => action.action === 'c2pa.created' && action.digitalSourceType === IPTC_TRAINED_ALGORITHMIC_MEDIA,
      ),
  );

/** The file's active manifest as the CAI reader validates it. */
export async function readCredentials(file: File): Promise<CredentialsReading> {
  const c2pa = await reader();
  const found = await c2pa.reader.fromBlob(file.type || 'image/png', file).catch(() => null);
  if (!found) return { kind: 'none' };
  try {
    const store = await found.manifestStore();
    const manifest = store.active_manifest ? store.manifests?.[store.active_manifest] : undefined;
    if (!manifest) return { kind: 'none' };
    const assertions = (manifest.assertions ?? []) as Assertion[];
    const license = assertions.find((a) => a.label === CREDENTIALS_LICENSE_LABEL)?.data as CredentialsLicense | undefined;
    const issuer = manifest.signature_info?.issuer ?? '';
    const name = manifest.signature_info?.common_name ?? '';
    return {
      kind: 'found',
      valid: store.validation_state === 'Valid' || store.validation_state === 'Trusted',
      ours: issuer === CREDENTIALS_SIGNER_ORGANIZATION && Boolean(license),
      test: /\bTEST\b/.test(name),
      signer: [name, issuer].filter(Boolean).join(', ') || 'an unnamed signer',
      createdByAi: createdByAi(assertions),
      ...(license ? { license } : {}),
    };
  } finally {
    await found.free();
  }
}
