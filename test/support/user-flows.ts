// What a person does through the public API, in small steps that follow the product as it
// changes: join the waitlist (and follow the confirmation link when one is mailed), apply to
// the founding programme with photos (and confirm the address when the template has a route
// for it). Each caller can come from its own loopback address (127.0.x.y), so per-IP limits see
// different people, as they would in production.
import { signupPayload } from '../integration/founding/support';
import { eventually } from './eventually';
import { postJsonFrom, type FromAnswer } from './from-address';
import type { FoundingUploadResponse } from '../../events/founding';
import { CONSENT_VERSION } from '../../events/identity';
import type { CfnTemplate } from '../../infra/local/template';

/** The part of a twin these flows use (a started Twin or a test's TestTwin). */
export interface FlowTwin {
  urls: { api: string };
  template: CfnTemplate;
  emails(): Promise<Array<{ to: string[]; subject: string; text?: string; html?: string }>>;
}

export type Answer = FromAnswer;

/** The loopback address of caller n (n >= 0): 127.0.x.y, never 127.0.0.1. */
export const callerIp = (n: number) => `127.0.${1 + Math.floor(n / 250)}.${2 + (n % 250)}`;

/** A POST of JSON from a given local address (the machine's default when none is given). */
export const postFrom = (ip: string | undefined, url: string, body: unknown): Promise<Answer> => postJsonFrom(ip ?? '127.0.0.1', url, body);

/**
 * What a person does with "Something went wrong on our side. Please try again in a moment.":
 * tries again (up to `retries` times, a pause growing to half a second between tries). Every
 * retry is counted in `retried`.
 */
export const serverErrorRetries = { retried: 0 };
async function postAsPerson(ip: string | undefined, url: string, body: unknown, retries: number): Promise<Answer> {
  let attempt = 0;
  return eventually(
    async () => {
      const answer = await postFrom(ip, url, body);
      if (answer.status < 500 || attempt++ >= retries) return answer;
      serverErrorRetries.retried++;
      return false;
    },
    { timeoutMs: 120_000, maxIntervalMs: 500, what: `an answer below 500 from ${url}` },
  );
}

export const emailsTo = async (twin: FlowTwin, address: string) => (await twin.emails()).filter((m) => m.to.includes(address));

/** `POST` routes of the template whose path matches, e.g. /confirm/ and /waitlist/. */
function postRoutes(twin: FlowTwin, ...patterns: RegExp[]): string[] {
  return Object.values(twin.template.Resources)
    .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
    .map((r) => String(r.Properties?.RouteKey ?? ''))
    .filter((key) => key.startsWith('POST ') && patterns.every((p) => p.test(key)))
    .map((key) => key.slice(5));
}

/** A confirmation link's token: `...#confirm=<token>` or `.../confirm#token=<token>`. */
const CONFIRM_LINK = /confirm(?:=|#token=|\?token=)([A-Za-z0-9_-]{43})/;

/** The token of the newest confirmation link mailed to an address whose link matches `path`, if any. */
async function confirmationToken(twin: FlowTwin, address: string, path: RegExp): Promise<string | undefined> {
  const links = (await emailsTo(twin, address))
    .map((m) => m.text ?? m.html ?? '')
    .filter((body) => path.test(body) && CONFIRM_LINK.test(body));
  return links.length ? CONFIRM_LINK.exec(links[links.length - 1])![1] : undefined;
}

export interface FlowOptions {
  /** The caller's loopback address (callerIp). */
  ip?: string;
  firstName?: string;
  /** Tries again after a 5xx answer, as its message asks, up to this many times (default 0). */
  retries?: number;
}

export interface JoinResult {
  signup: Answer;
  /** The confirmation's answer, when the product mails a link. */
  confirmed?: Answer;
}

/** Joins the waitlist as the site's form does; follows the confirmation link if one is mailed. */
export async function joinWaitlist(twin: FlowTwin, email: string, opts: FlowOptions = {}): Promise<JoinResult> {
  const retries = opts.retries ?? 0;
  const signup = await postAsPerson(opts.ip, `${twin.urls.api}/early-signup`, {
    email,
    firstName: opts.firstName ?? 'Maya',
    signupType: 'freelancer-creator',
    newsletter: true,
    terms: true,
  }, retries);
  if (signup.status !== 200) return { signup };
  const [confirmPath] = postRoutes(twin, /confirm/, /waitlist/);
  if (!confirmPath) return { signup };
  const token = await eventually(() => confirmationToken(twin, email, /type=waitlist|waitlist/), { timeoutMs: 60_000, what: `confirmation email to ${email}` });
  const confirmed = await postAsPerson(opts.ip, `${twin.urls.api}${confirmPath}`, { token }, retries);
  return { signup, confirmed };
}

export interface Photo {
  name: string;
  type: string;
  body: Buffer;
}

/** Asks for upload URLs (80 a call) and PUTs every photo as the browser does. */
export async function uploadPhotos(twin: FlowTwin, email: string, photos: Photo[], ip?: string, retries = 0): Promise<{ uploadSession: string; keys: string[] }> {
  let uploadSession: string | undefined;
  const keys: string[] = [];
  for (let i = 0; i < photos.length; i += 80) {
    const batch = photos.slice(i, i + 80);
    const res = await postAsPerson(ip, `${twin.urls.api}/founding-uploads`, {
      email,
      files: batch.map((f) => ({ name: f.name, type: f.type, size: f.body.length })),
      ...(uploadSession ? { uploadSession } : {}),
    }, retries);
    if (res.status !== 200) throw new Error(`POST /founding-uploads answered ${res.status}: ${res.text}`);
    const answer = res.json as FoundingUploadResponse;
    uploadSession = answer.uploadSession;
    for (const [j, upload] of answer.uploads.entries()) {
      const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(batch[j].body) });
      if (put.status !== 200) throw new Error(`photo upload answered ${put.status}: ${await put.text()}`);
      keys.push(upload.key);
    }
  }
  return { uploadSession: uploadSession!, keys };
}

export interface ApplyResult {
  /** The uploaded objects' keys. */
  keys: string[];
  signup: Answer;
  applicationId?: string;
  confirmed?: Answer;
}

/** Applies to the founding programme with photos; confirms the address when the product asks to. */
export async function applyFounding(twin: FlowTwin, email: string, photos: Photo[], opts: FlowOptions = {}): Promise<ApplyResult> {
  const retries = opts.retries ?? 0;
  const { uploadSession, keys } = await uploadPhotos(twin, email, photos, opts.ip, retries);
  const signup = await postAsPerson(opts.ip, `${twin.urls.api}/founding-talent-signup`, foundingPayload(email, uploadSession, keys, opts.firstName), retries);
  const applicationId: string | undefined = signup.json?.applicationId;
  if (signup.status !== 200) return { keys, signup, applicationId };
  const [confirmPath] = postRoutes(twin, /confirm/, /founding|application/);
  if (!confirmPath) return { keys, signup, applicationId };
  const token = await eventually(() => confirmationToken(twin, email, /founding/), { timeoutMs: 60_000, what: `confirmation email to ${email}` });
  const confirmed = await postAsPerson(opts.ip, `${twin.urls.api}${confirmPath}`, { token }, retries);
  // The proof of person, when the product asks for it: signed, face checks declined (a review by hand).
  const identityToken: unknown = confirmed.json?.identityToken;
  const [consentPath] = postRoutes(twin, /identity\/consent/, /founding/);
  if (confirmed.status === 200 && typeof identityToken === 'string' && consentPath) {
    const signed = await postAsPerson(opts.ip, `${twin.urls.api}${consentPath}`, { token: identityToken, faceConsent: false, typedName: `${opts.firstName ?? 'Ada'} Lovelace`, consentVersion: CONSENT_VERSION }, retries);
    if (signed.status !== 200) return { keys, signup, applicationId: applicationId ?? confirmed.json?.applicationId, confirmed: signed };
  }
  return { keys, signup, applicationId: applicationId ?? confirmed.json?.applicationId, confirmed };
}

/** The founding application form's body, as the site sends it (the founding tests' payload). */
export const foundingPayload = (email: string, uploadSession: string, keys: string[], firstName = 'Ada') =>
  signupPayload(email, uploadSession, keys, { firstName });
