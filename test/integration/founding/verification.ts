// Helpers of the verified identity's integration tests (docs/identity.md, "Verified identity"):
// the official Stripe client on the twin's emulator, the hosted verification page filled in as a
// tester would (one multipart form, docs/local-twin.md "Identity in the Stripe emulator"), and
// deliveries to the Identity webhook signed as Stripe signs them.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import sharp from 'sharp';
import Stripe from 'stripe';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import type { TestTwin } from '../../support/twin';
import { postJsonFrom, type FromAnswer } from '../../support/from-address';

/** The official client on the twin's emulator, with the secret key the functions use. */
export async function stripeOf(twin: TestTwin): Promise<Stripe> {
  const { secretKey } = await twin.stripe.config();
  const url = new URL(twin.urls.stripe);
  return new Stripe(secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
}

/** The Identity webhook endpoint's signing secret, as the function reads it (the local Secrets Manager). */
export async function identityWebhookSecret(twin: TestTwin): Promise<string> {
  const secretId = Object.keys(twin.template.Resources).find((lid) => lid.startsWith('StripeIdentityWebhookSecret') && twin.template.Resources[lid]!.Type === 'AWS::SecretsManager::Secret');
  if (!secretId) throw new Error('the template has no StripeIdentityWebhookSecret');
  const sm = new SecretsManagerClient({ endpoint: twin.sdkEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  try {
    return (await sm.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString!;
  } finally {
    sm.destroy();
  }
}

/** Posts a body to the Identity webhook with `signature` (none: no header). */
export async function postIdentityWebhook(twin: TestTwin, body: string, signature?: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${twin.urls.api}/webhooks/stripe-identity`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

let documentPhoto: Promise<Buffer> | undefined;

/** A photo of an ID card (the emulator reads only its kind). */
const idDocument = () => (documentPhoto ??= sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 200, g: 210, b: 230 } } }).png().toBuffer());

interface PageAnswers {
  firstName: string;
  lastName: string;
  /** `YYYY-MM-DD`. */
  dob?: string;
  outcome?: 'verified' | 'document_unverified_other' | 'document_expired' | 'selfie_face_mismatch' | 'under_supported_age';
  /** The selfie's bytes, for a session that asks for one. */
  selfie?: Buffer;
}

/** Fills in and submits the hosted verification page of `url` as a tester does; answers where it sends the browser. */
export async function submitVerificationPage(url: string, answers: PageAnswers): Promise<string | null> {
  const form = new FormData();
  form.set('first_name', answers.firstName);
  form.set('last_name', answers.lastName);
  form.set('dob', answers.dob ?? '1990-01-15');
  form.set('document_type', 'id_card');
  form.set('outcome', answers.outcome ?? 'verified');
  form.set('document', new Blob([new Uint8Array(await idDocument())], { type: 'image/png' }), 'id-card.png');
  if (answers.selfie) form.set('selfie', new Blob([new Uint8Array(answers.selfie)], { type: 'image/jpeg' }), 'selfie.jpg');
  const res = await fetch(url, { method: 'POST', body: form, redirect: 'manual' });
  if (res.status >= 400) throw new Error(`the verification page answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  await res.body?.cancel();
  return res.headers.get('location');
}

/** `POST /founding-identity/verification` from the applicant's network. */
export const startVerification = (twin: TestTwin, from: string, token: string): Promise<FromAnswer> => postJsonFrom(from, `${twin.urls.api}/founding-identity/verification`, { token });

/** A date of birth `years` years before today (UTC), `YYYY-MM-DD`, plus `days` days later. */
export function bornYearsAgo(years: number, days = 0): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
