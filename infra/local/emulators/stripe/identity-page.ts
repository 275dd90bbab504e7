// Stripe Identity's hosted verification page in the emulator (a VerificationSession's `url`): the
// tester uploads a photo of a document and, when the session asks for one, a selfie (the camera,
// or a photo chosen), types the name and date of birth on the document, and picks the outcome
// Stripe's checks would reach. A plain multipart form POST, so tests drive it with fetch and
// FormData; after it the browser goes to the session's `return_url`, as given.
import { randomBytes } from 'node:crypto';
import type * as http from 'node:http';
import { StripeApiError } from './form';
import { readBytes, redirect, sendHtml, type Pages } from './http';
import { DOCUMENT_TYPES, type DocumentType, isTestOutcome, seventeenToday, type Submission, type TestOutcome } from './identity-checks';
import { identityPage, type PageField } from './identity-html';
import type { StoredUpload } from './files';
import type { Identity } from './identity';
import { messagePage } from './pages';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_BODY_BYTES = 2 * MAX_FILE_BYTES + 64 * 1024;

/** The image's kind by its first bytes (JPEG, PNG or WebP, as Stripe takes them), whatever the browser called it. */
function imageKind(bytes: Buffer): { type: string; contentType: string } | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { type: 'jpg', contentType: 'image/jpeg' };
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { type: 'png', contentType: 'image/png' };
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return { type: 'webp', contentType: 'image/webp' };
  return undefined;
}

type Errors = Partial<Record<PageField, string>>;

async function imageOf(value: FormDataEntryValue | null, field: PageField, missingMessage: string, errors: Errors): Promise<StoredUpload | undefined> {
  if (!value || typeof value === 'string' || value.size === 0) {
    errors[field] = missingMessage;
    return undefined;
  }
  if (value.size > MAX_FILE_BYTES) {
    errors[field] = `The photo is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB: choose a smaller one.`;
    return undefined;
  }
  const bytes = Buffer.from(await value.arrayBuffer());
  const kind = imageKind(bytes);
  if (!kind) {
    errors[field] = 'Choose a JPEG, PNG or WebP photo.';
    return undefined;
  }
  return { bytes, ...kind, filename: `${field}.${kind.type}` };
}

/** A typed date of birth (`YYYY-MM-DD`), when it is a real date between 1900 and today. */
function dobOf(text: string, today: Date): { day: number; month: number; year: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = m.slice(1).map(Number);
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || year < 1900 || d > today) return undefined;
  return { day, month, year };
}

/** What the form holds, checked. */
interface Read {
  errors: Errors;
  values: Record<string, string>;
  submission?: Omit<Submission, 'documentFile' | 'selfieFile'> & { document: StoredUpload; selfie: StoredUpload | null };
}

async function readForm(form: FormData, opts: { selfie: boolean; allowed: DocumentType[]; today: Date }): Promise<Read> {
  const text = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' ? v.trim() : '';
  };
  const values = { first_name: text('first_name'), last_name: text('last_name'), dob: text('dob'), document_type: text('document_type'), outcome: text('outcome') };
  const errors: Errors = {};
  const outcome: TestOutcome = isTestOutcome(values.outcome) ? values.outcome : 'verified';
  if (values.outcome && !isTestOutcome(values.outcome)) errors.outcome = 'Pick one of the test outcomes.';
  if (outcome === 'selfie_face_mismatch' && !opts.selfie) errors.outcome = 'This verification takes no selfie: pick another outcome.';
  const documentType = values.document_type as DocumentType;
  if (!opts.allowed.includes(documentType)) errors.document_type = `Choose the type of your ID: ${opts.allowed.map((t) => DOCUMENT_TYPES[t]).join(', ')}.`;
  if (!values.first_name || values.first_name.length > 200) errors.first_name = 'Enter the first name on your ID, with any middle names.';
  if (!values.last_name || values.last_name.length > 200) errors.last_name = 'Enter the last name on your ID.';
  // Under 18: the date of birth is the one of a person who turned 17 today, whatever was typed.
  const dob = outcome === 'under_supported_age' ? seventeenToday(opts.today) : dobOf(values.dob, opts.today);
  if (!dob) errors.dob = 'Enter the date of birth on your ID (YYYY-MM-DD).';
  const document = await imageOf(form.get('document'), 'document', 'Add a photo of your ID.', errors);
  const selfie = opts.selfie ? await imageOf(form.get('selfie'), 'selfie', 'Take a selfie, or choose a photo of your face.', errors) : undefined;
  if (Object.keys(errors).length > 0 || !document || !dob) return { errors, values };
  return { errors, values, submission: { outcome, documentType, firstName: values.first_name, lastName: values.last_name, dob, document, selfie: selfie ?? null } };
}

async function formDataOf(req: http.IncomingMessage): Promise<FormData | undefined> {
  const type = String(req.headers['content-type'] ?? '');
  const body = await readBytes(req, MAX_BODY_BYTES);
  if (!type.startsWith('multipart/form-data') && !type.startsWith('application/x-www-form-urlencoded')) return undefined;
  try {
    return await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
  } catch {
    return undefined;
  }
}

/** The page of a session (GET shows it, POST submits it); any other state of the session gets a message. */
export function identityPages(pages: Pages, identity: Identity): void {
  pages.on(/^\/verify\/start\/(test_[A-Za-z0-9]+)$/, ['GET', 'POST'], async ({ req, res, match: [token], method }) => {
    const opened = identity.sessionOfToken(token);
    if (!opened) return sendHtml(res, 404, messagePage('Page not found', 'This verification link is not valid.'));
    const { session, returnUrl } = opened;
    const back = returnUrl ? { href: returnUrl, text: 'Return to Humanly' } : undefined;
    if (session.status !== 'requires_input') {
      const [title, message] =
        session.status === 'canceled'
          ? ['Verification canceled', 'This verification was canceled and can no longer be submitted.']
          : ['Verification submitted', 'Your verification has been submitted. You can close this page.'];
      if (method === 'POST') await readBytes(req, MAX_BODY_BYTES).catch(() => undefined);
      return sendHtml(res, method === 'POST' ? 409 : session.status === 'canceled' ? 410 : 200, messagePage(title, message, back));
    }
    const document = session.options?.document ?? {};
    const view = { action: `/verify/start/${token}`, selfie: document.require_matching_selfie === true, liveCapture: document.require_live_capture === true, allowed: (document.allowed_types ?? Object.keys(DOCUMENT_TYPES)) as DocumentType[] };
    const show = (status: number, errors: Errors = {}, values: Record<string, string> = {}) => {
      const nonce = randomBytes(16).toString('base64');
      sendHtml(res, status, identityPage({ ...view, nonce, errors, values }), { scriptNonce: nonce });
    };
    if (method === 'GET') return show(200);
    let form: FormData | undefined;
    try {
      form = await formDataOf(req);
    } catch (err) {
      if (err instanceof StripeApiError && err.status === 413) return show(413, { document: `The photos are too large: each must be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.` });
      throw err;
    }
    if (!form) return show(400, { document: 'Send the form as multipart/form-data, with the photos as files.' });
    const read = await readForm(form, { selfie: view.selfie, allowed: view.allowed, today: new Date(identity.now() * 1000) });
    if (!read.submission) return show(400, read.errors, read.values);
    const { document: doc, selfie, ...rest } = read.submission;
    const documentFile = identity.storeFile(session.id, 'identity_document_downloadable', doc);
    const selfieFile = selfie ? identity.storeFile(session.id, 'selfie', selfie) : null;
    identity.submit(session, { ...rest, documentFile, selfieFile });
    if (returnUrl) return redirect(res, returnUrl);
    return sendHtml(res, 200, messagePage('Verification submitted', 'Thank you: your verification has been submitted. You can close this page.'));
  });
}
