// The Stripe client every wing that talks to Stripe uses (payments, payouts): the official
// `stripe` package at a pinned API version, its address from STRIPE_API_URL when the twin points
// it at the emulator (decisions 042, 044), and secrets from Secrets Manager cached per container.
import Stripe from 'stripe';
import { secretValue } from './secrets';

/** Pinned so an upgrade of the package is a decision, not a surprise in the shapes we read. */
const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** A client for `key`; `apiUrl` (the twin's emulator) replaces api.stripe.com. */
function stripeClient(key: string, apiUrl?: string): Stripe {
  const address = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(key, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Humanly' },
    ...(address ? { host: address.hostname, port: Number(address.port || (address.protocol === 'https:' ? 443 : 80)), protocol: address.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}

let fromEnv: Promise<Stripe> | undefined;

/** The client from env STRIPE_SECRET_KEY_SECRET (the secret's ARN or name) and STRIPE_API_URL (optional). */
export function stripeFromEnv(): Promise<Stripe> {
  fromEnv ??= (async () => {
    const secretId = process.env.STRIPE_SECRET_KEY_SECRET;
    if (!secretId) throw new Error('Invalid function configuration: STRIPE_SECRET_KEY_SECRET is not set');
    return stripeClient(await secretValue(secretId, 'Stripe secret key'), process.env.STRIPE_API_URL || undefined);
  })();
  fromEnv.catch(() => (fromEnv = undefined));
  return fromEnv;
}

/** A webhook endpoint's signing secret from the secret named by env `envName`. */
export function signingSecretFromEnv(envName: string): Promise<string> {
  const secretId = process.env[envName];
  if (!secretId) return Promise.reject(new Error(`Invalid function configuration: ${envName} is not set`));
  return secretValue(secretId, 'Stripe webhook signing');
}

/** The largest file read back from Stripe (an Identity selfie is a few hundred kilobytes). */
const STRIPE_FILE_MAX_BYTES = 15 * 1024 * 1024;

/**
 * A Stripe file's bytes (an Identity VerificationReport's selfie): its `url` is read with the
 * secret key, as Stripe's files host asks, through the client from env (`stripeFromEnv`).
 */
export async function stripeFileContents(fileId: string): Promise<Buffer> {
  const stripe = await stripeFromEnv();
  const file = await stripe.files.retrieve(fileId);
  if (!file.url) throw new Error(`Stripe file ${fileId} has no url`);
  const key = await secretValue(process.env.STRIPE_SECRET_KEY_SECRET!, 'Stripe secret key');
  const res = await fetch(file.url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
  if (!res.ok) throw new Error(`Stripe file ${fileId} answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > STRIPE_FILE_MAX_BYTES) throw new Error(`Stripe file ${fileId} is ${bytes.length} bytes, more than ${STRIPE_FILE_MAX_BYTES}`);
  return bytes;
}
