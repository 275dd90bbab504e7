import * as http from 'node:http';
import Stripe from 'stripe';
import { startStripe, type StripeEmulator } from '../../../infra/local/emulators/stripe';
import { eventually } from '../../support/eventually';

jest.setTimeout(60_000);

/** A webhook endpoint of the test's own: keeps each request's raw body and signature. */
async function receiver() {
  const received: Array<{ signature: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ signature: String(req.headers['stripe-signature']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/stripe-identity`,
    received,
    /** Every delivery, verified as the product verifies it (throws on a bad signature). */
    events: (secret: string) => received.map((r) => Stripe.webhooks.constructEvent(r.body, r.signature, secret)),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

// A 1x1 PNG, and bytes that open as a JPEG: the emulator reads an image's kind from its first bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF selfie of Maya'), Buffer.from([0xff, 0xd9])]);
const RETURN_URL = 'http://127.0.0.1:4000/founding/identity?step=verified&token=abc#top';
const SECRET = 'whsec_identity_endpoint_secret_of_test';

type Outcome = 'verified' | 'document_unverified_other' | 'document_expired' | 'selfie_face_mismatch' | 'under_supported_age';

/** The hosted page's form as a browser posts it (multipart, the photos as files). */
function submit(url: string, fields: Partial<Record<'first_name' | 'last_name' | 'dob' | 'document_type' | 'outcome', string>> = {}, files: { document?: Buffer | null; selfie?: Buffer | null } = {}) {
  const form = new FormData();
  const values = { first_name: 'Maya Lin', last_name: 'Chen', dob: '1990-01-15', document_type: 'passport', outcome: 'verified', ...fields };
  for (const [k, v] of Object.entries(values)) form.set(k, v);
  const document = files.document === undefined ? PNG : files.document;
  const selfie = files.selfie === undefined ? JPEG : files.selfie;
  if (document) form.set('document', new Blob([new Uint8Array(document)], { type: 'image/png' }), 'passport.png');
  if (selfie) form.set('selfie', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), 'selfie.jpg');
  return fetch(url, { method: 'POST', body: form, redirect: 'manual' });
}

describe('Stripe emulator: Identity, through the official client', () => {
  let emulator: StripeEmulator;
  let stripe: Stripe;
  let hooks: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    emulator = await startStripe({ webhookRetryDelaysMs: [20, 40, 80], identityDelaysMs: { processing: 40, redaction: 40 } });
    const url = new URL(emulator.endpoint);
    stripe = new Stripe(emulator.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
    hooks = await receiver();
    // As the twin registers its identity endpoint: the session events only, by their group.
    emulator.addWebhookEndpoint({ url: hooks.url, secret: SECRET, enabledEvents: ['identity.verification_session.*'] });
  });
  afterAll(async () => {
    await hooks?.close();
    await emulator?.stop();
  });

  const eventsAbout = (id: string) => hooks.events(SECRET).filter((e) => (e.data.object as { id: string }).id === id);
  const waitForEvent = (id: string, type: string, count = 1) =>
    eventually(() => eventsAbout(id).filter((e) => e.type === type).length >= count && eventsAbout(id).filter((e) => e.type === type), { what: `${count} ${type} about ${id}`, timeoutMs: 10_000 });
  const waitForStatus = (id: string, status: string) =>
    eventually(async () => (await stripe.identity.verificationSessions.retrieve(id)).status === status, { what: `${id} ${status}`, timeoutMs: 10_000 });

  const createSession = (extra: Stripe.Identity.VerificationSessionCreateParams = {}) =>
    stripe.identity.verificationSessions.create({
      type: 'document',
      options: { document: { require_matching_selfie: true, require_live_capture: true, allowed_types: ['passport', 'driving_license'] } },
      metadata: { application: 'app-1' },
      client_reference_id: 'app-1',
      return_url: RETURN_URL,
      ...extra,
    });

  /** A session submitted on its page with `outcome`, once the checks have answered. */
  async function submitted(outcome: Outcome, fields: Parameters<typeof submit>[1] = {}) {
    const session = await createSession();
    const res = await submit(session.url!, { outcome, ...fields });
    expect(res.status).toBe(303);
    await waitForStatus(session.id, outcome === 'verified' ? 'verified' : 'requires_input');
    return session;
  }

  it('creates a session that requires input, with its page on the emulator and the options, metadata and reference given', async () => {
    const session = await createSession();
    expect(session).toMatchObject({
      object: 'identity.verification_session',
      status: 'requires_input',
      type: 'document',
      livemode: false,
      client_reference_id: 'app-1',
      metadata: { application: 'app-1' },
      options: { document: { require_matching_selfie: true, require_live_capture: true, allowed_types: ['passport', 'driving_license'] } },
      last_error: null,
      last_verification_report: null,
      redaction: null,
    });
    expect(session.id).toMatch(/^vs_[A-Za-z0-9]+$/);
    expect(session.client_secret).toMatch(new RegExp(`^${session.id}_secret_`));
    expect(session.url!.startsWith(`${emulator.endpoint}/`)).toBe(true);
    // verified_outputs is Stripe's to show only when expanded.
    expect(Object.keys(session)).not.toContain('verified_outputs');
    const [created] = await waitForEvent(session.id, 'identity.verification_session.created');
    expect((created.data.object as Stripe.Identity.VerificationSession).status).toBe('requires_input');

    const retrieved = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['verified_outputs'] });
    expect(retrieved.verified_outputs).toBeNull();
  });

  it("refuses bad parameters with Stripe's errors", async () => {
    await expect(stripe.identity.verificationSessions.create({})).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'type', code: 'parameter_missing' });
    await expect(stripe.identity.verificationSessions.create({ type: 'selfie_only' })).rejects.toMatchObject({ statusCode: 400, param: 'type' });
    await expect(stripe.identity.verificationSessions.create({ type: 'document', options: { document: { allowed_types: ['library_card'] } } })).rejects.toMatchObject({
      statusCode: 400,
      param: 'options[document][allowed_types]',
    });
    await expect(
      stripe.identity.verificationSessions.create({ type: 'document', options: { document: { require_matching_selfie: true, shoe_size: 42 } as Stripe.Identity.VerificationSessionCreateParams.Options.Document } }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'options[document][shoe_size]' });
    await expect(stripe.identity.verificationSessions.create({ type: 'document', return_url: 'not a url' })).rejects.toMatchObject({ statusCode: 400, code: 'url_invalid', param: 'return_url' });
    await expect(stripe.identity.verificationSessions.retrieve('vs_nope')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('shows a hosted page that says it is the emulator in test mode, with labelled fields, the selfie camera and its file fallback', async () => {
    const withSelfie = await createSession();
    const page = await fetch(withSelfie.url!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Test mode');
    expect(html).toContain('local Stripe emulator');
    expect(html).toContain('enctype="multipart/form-data"');
    for (const id of ['document_type', 'document', 'selfie', 'first_name', 'last_name', 'dob']) expect(html).toContain(`<label for="${id}">`);
    expect(html).toMatch(/<input type="file" id="selfie" name="selfie" accept="image\/\*" capture="user"/);
    expect(html).toContain('getUserMedia');
    // The script runs by its nonce, and only it.
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(page.headers.get('content-security-policy')).toContain(`script-src 'nonce-${nonce}'`);
    // Only the allowed document types are offered.
    expect(html).toContain('value="passport"');
    expect(html).not.toContain('value="id_card"');

    const documentOnly = await stripe.identity.verificationSessions.create({ type: 'document' });
    const plain = await (await fetch(documentOnly.url!)).text();
    expect(plain).not.toContain('id="selfie"');
    expect(plain).not.toContain('value="selfie_face_mismatch"');
    expect(plain).toContain('value="id_card"');
  });

  it('verifies a submission: processing, then verified, with the outputs, the report and its files as Stripe gives them', async () => {
    const session = await createSession();
    const res = await submit(session.url!, { first_name: 'Maya Lin', last_name: 'Chen', dob: '1990-01-15' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(RETURN_URL);
    const [processing] = await waitForEvent(session.id, 'identity.verification_session.processing');
    expect((processing.data.object as Stripe.Identity.VerificationSession).status).toBe('processing');
    const [verified] = await waitForEvent(session.id, 'identity.verification_session.verified');
    const fromEvent = verified.data.object as Stripe.Identity.VerificationSession;
    expect(fromEvent).toMatchObject({ status: 'verified', last_error: null, url: null, client_secret: null });
    expect(Object.keys(fromEvent)).not.toContain('verified_outputs');

    const outputs = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['verified_outputs'] });
    expect(outputs.verified_outputs).toMatchObject({ first_name: 'Maya Lin', last_name: 'Chen' });
    expect(Object.keys(outputs.verified_outputs!)).not.toContain('dob');
    const withDob = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['verified_outputs.dob', 'last_verification_report'] });
    expect(withDob.verified_outputs!.dob).toEqual({ day: 15, month: 1, year: 1990 });

    const report = withDob.last_verification_report as Stripe.Identity.VerificationReport;
    expect(report).toMatchObject({ object: 'identity.verification_report', type: 'document', verification_session: session.id, client_reference_id: 'app-1' });
    expect(report.document).toMatchObject({ status: 'verified', error: null, first_name: 'Maya Lin', last_name: 'Chen', type: 'passport' });
    expect(Object.keys(report.document!)).not.toContain('dob');
    const [documentFile] = report.document!.files!;
    expect(report.selfie).toMatchObject({ status: 'verified', error: null, document: documentFile });
    const selfieFile = report.selfie!.selfie!;
    const reportDob = await stripe.identity.verificationReports.retrieve(report.id, { expand: ['document.dob'] });
    expect(reportDob.document!.dob).toEqual({ day: 15, month: 1, year: 1990 });
    expect((await stripe.identity.verificationReports.list({ verification_session: session.id })).data.map((r) => r.id)).toEqual([report.id]);

    // The files: Stripe's objects, their contents read with the secret key only.
    const selfie = await stripe.files.retrieve(selfieFile);
    expect(selfie).toMatchObject({ object: 'file', purpose: 'selfie', size: JPEG.length, type: 'jpg' });
    expect(selfie.url).toBe(`${emulator.endpoint}/v1/files/${selfieFile}/contents`);
    const document = await stripe.files.retrieve(documentFile);
    expect(document).toMatchObject({ purpose: 'identity_document_downloadable', size: PNG.length, type: 'png' });
    const withKey = await fetch(selfie.url!, { headers: { authorization: `Bearer ${emulator.secretKey}` } });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await withKey.arrayBuffer()).equals(JPEG)).toBe(true);
    const documentBytes = await fetch(document.url!, { headers: { authorization: `Bearer ${emulator.secretKey}` } });
    expect(Buffer.from(await documentBytes.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(selfie.url!)).status).toBe(401);
    expect((await fetch(selfie.url!, { headers: { authorization: `Bearer ${emulator.publishableKey}` } })).status).toBe(403);
    expect((await fetch(selfie.url!, { headers: { authorization: 'Bearer sk_test_someoneelse000000000000000000' } })).status).toBe(401);

    // Verified is final: the page's link takes no other submission, and cancel is refused.
    expect((await submit(session.url!)).status).toBe(409);
    expect((await stripe.identity.verificationSessions.retrieve(session.id)).last_verification_report).toBe(report.id);
    await expect(stripe.identity.verificationSessions.cancel(session.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('`verified`') });
  });

  it.each([
    ['document_unverified_other', 'document', 'unverified'],
    ['document_expired', 'document', 'unverified'],
    ['selfie_face_mismatch', 'selfie', 'unverified'],
    ['under_supported_age', 'document', 'unverified'],
  ] as const)('asks for input again on %s, with the error in the session and the report', async (outcome, check, status) => {
    const session = await submitted(outcome);
    const [event] = await waitForEvent(session.id, 'identity.verification_session.requires_input');
    const failed = event.data.object as Stripe.Identity.VerificationSession;
    expect(failed.last_error).toEqual({ code: outcome, reason: expect.any(String) });
    expect(failed.url).toBe(session.url);
    const retrieved = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['verified_outputs', 'last_verification_report'] });
    expect(retrieved.verified_outputs).toBeNull();
    const report = retrieved.last_verification_report as Stripe.Identity.VerificationReport;
    expect(report[check]).toMatchObject({ status, error: { code: outcome, reason: expect.any(String) } });
  });

  it('under 18: the document shows a date of birth 17 years before today, whatever was typed', async () => {
    const session = await submitted('under_supported_age', { dob: '' });
    const today = new Date(emulator.now() * 1000);
    const retrieved = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['last_verification_report.document.dob'] });
    const report = retrieved.last_verification_report as Stripe.Identity.VerificationReport;
    expect(report.document!.dob).toEqual({ day: today.getUTCDate(), month: today.getUTCMonth() + 1, year: today.getUTCFullYear() - 17 });
  });

  it('takes a new submission while requires_input (a new report each time) and verifies it', async () => {
    const session = await submitted('selfie_face_mismatch');
    const first = (await stripe.identity.verificationSessions.retrieve(session.id)).last_verification_report as string;
    const res = await submit(session.url!, { outcome: 'verified' });
    expect(res.status).toBe(303);
    await waitForStatus(session.id, 'verified');
    const after = await stripe.identity.verificationSessions.retrieve(session.id);
    expect(after.last_error).toBeNull();
    expect(after.last_verification_report).not.toBe(first);
    expect((await stripe.identity.verificationReports.list({ verification_session: session.id })).data).toHaveLength(2);
    expect((await waitForEvent(session.id, 'identity.verification_session.processing', 2)).length).toBe(2);
  });

  it('answers a form with missing or wrong fields with the page and its errors, and changes nothing', async () => {
    const session = await createSession();
    const filesBefore = (await stripe.files.list({ limit: 100 })).data.length;
    const noName = await submit(session.url!, { first_name: '' });
    expect(noName.status).toBe(400);
    const html = await noName.text();
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/id="first_name"[^>]*aria-invalid="true"/);
    expect((await submit(session.url!, {}, { document: Buffer.from('not an image at all') })).status).toBe(400);
    expect((await submit(session.url!, {}, { selfie: null })).status).toBe(400);
    expect((await submit(session.url!, { document_type: 'id_card' })).status).toBe(400);
    expect((await submit(session.url!, { dob: '2990-01-01' })).status).toBe(400);
    const after = await stripe.identity.verificationSessions.retrieve(session.id);
    expect(after).toMatchObject({ status: 'requires_input', last_verification_report: null });
    expect((await stripe.files.list({ limit: 100 })).data).toHaveLength(filesBefore);
    expect(eventsAbout(session.id).map((e) => e.type)).not.toContain('identity.verification_session.processing');
  });

  it('cancels only a session that requires input, and its page says so', async () => {
    const session = await createSession();
    const canceled = await stripe.identity.verificationSessions.cancel(session.id);
    expect(canceled).toMatchObject({ status: 'canceled', url: null, client_secret: null });
    await waitForEvent(session.id, 'identity.verification_session.canceled');
    await expect(stripe.identity.verificationSessions.cancel(session.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('`canceled`') });
    expect((await fetch(session.url!)).status).toBe(410);
    expect((await submit(session.url!)).status).toBe(409);
  });

  it('neither cancels nor redacts a session while its checks run', async () => {
    // An emulator of its own whose checks take longer than the test: the session stays processing.
    const slow = await startStripe({ identityDelaysMs: { processing: 600_000 } });
    try {
      const url = new URL(slow.endpoint);
      const client = new Stripe(slow.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http' });
      const session = await client.identity.verificationSessions.create({ type: 'document', return_url: RETURN_URL });
      expect((await submit(session.url!, {}, { selfie: null })).status).toBe(303);
      expect((await client.identity.verificationSessions.retrieve(session.id)).status).toBe('processing');
      await expect(client.identity.verificationSessions.cancel(session.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('`processing`') });
      await expect(client.identity.verificationSessions.redact(session.id)).rejects.toMatchObject({ statusCode: 400 });
      expect(await client.identity.verificationSessions.retrieve(session.id)).toMatchObject({ status: 'processing', redaction: null });
    } finally {
      await slow.stop();
    }
  });

  it('updates a session that requires input (its provided details shown only when expanded), and no other', async () => {
    const session = await createSession({ provided_details: { email: 'maya@example.com' } });
    expect(Object.keys(session)).not.toContain('provided_details');
    const updated = await stripe.identity.verificationSessions.update(session.id, {
      metadata: { application: '', attempt: '2' },
      options: { document: { require_matching_selfie: false } },
      expand: ['provided_details'],
    });
    expect(updated.metadata).toEqual({ attempt: '2' });
    expect(updated.options).toEqual({ document: { require_matching_selfie: false } });
    expect(updated.provided_details).toEqual({ email: 'maya@example.com' });
    // Without the selfie asked for, the page no longer takes one.
    expect(await (await fetch(session.url!)).text()).not.toContain('id="selfie"');
    await stripe.identity.verificationSessions.cancel(session.id);
    await expect(stripe.identity.verificationSessions.update(session.id, { metadata: { attempt: '3' } })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('`canceled`') });
  });

  it('lists sessions newest first, by status, a page at a time', async () => {
    const a = await createSession({ client_reference_id: 'list-a' });
    const b = await createSession({ client_reference_id: 'list-a' });
    await stripe.identity.verificationSessions.cancel(a.id);
    const byRef = await stripe.identity.verificationSessions.list({ client_reference_id: 'list-a' });
    expect(byRef.data.map((s) => s.id)).toEqual([b.id, a.id]);
    const canceled = await stripe.identity.verificationSessions.list({ status: 'canceled', limit: 100 });
    expect(canceled.data.map((s) => s.id)).toContain(a.id);
    expect(canceled.data.map((s) => s.id)).not.toContain(b.id);
    expect(canceled.data.every((s) => s.status === 'canceled')).toBe(true);
    const first = await stripe.identity.verificationSessions.list({ limit: 1 });
    expect(first.has_more).toBe(true);
    const next = await stripe.identity.verificationSessions.list({ limit: 1, starting_after: first.data[0].id });
    expect(next.data[0].id).not.toBe(first.data[0].id);
    await expect(stripe.identity.verificationSessions.list({ status: 'done' as 'verified' })).rejects.toMatchObject({ statusCode: 400, param: 'status' });
  });

  it('redacts a verified session: processing, then redacted, with the outputs, names and files gone', async () => {
    const session = await submitted('verified');
    const report = (await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['last_verification_report'] })).last_verification_report as Stripe.Identity.VerificationReport;
    const files = [...report.document!.files!, report.selfie!.selfie!];
    const redacting = await stripe.identity.verificationSessions.redact(session.id);
    expect(redacting.redaction).toEqual({ status: 'processing' });
    // Stripe erases the metadata with the rest.
    expect(redacting.metadata).toEqual({});
    const [event] = await waitForEvent(session.id, 'identity.verification_session.redacted');
    expect((event.data.object as Stripe.Identity.VerificationSession).redaction).toEqual({ status: 'redacted' });

    const redacted = await stripe.identity.verificationSessions.retrieve(session.id, { expand: ['verified_outputs.dob', 'last_verification_report.document.dob'] });
    expect(redacted).toMatchObject({ status: 'verified', redaction: { status: 'redacted' } });
    expect(redacted.verified_outputs).toMatchObject({ first_name: '[redacted]', last_name: '[redacted]', dob: null });
    const redactedReport = redacted.last_verification_report as Stripe.Identity.VerificationReport;
    expect(redactedReport.document).toMatchObject({ first_name: '[redacted]', last_name: '[redacted]', dob: null, files: [] });
    expect(redactedReport.selfie).toMatchObject({ selfie: null, document: null });
    for (const file of files) {
      await expect(stripe.files.retrieve(file)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
      expect((await fetch(`${emulator.endpoint}/v1/files/${file}/contents`, { headers: { authorization: `Bearer ${emulator.secretKey}` } })).status).toBe(404);
    }
    // Its events are redacted too: none lists the metadata any more.
    const events = await stripe.events.list({ type: 'identity.verification_session.*', limit: 100 }).autoPagingToArray({ limit: 10_000 });
    const about = events.filter((e) => (e.data.object as { id: string }).id === session.id);
    expect(about.map((e) => e.type)).toEqual(expect.arrayContaining(['identity.verification_session.created', 'identity.verification_session.verified']));
    expect(about.every((e) => Object.keys((e.data.object as Stripe.Identity.VerificationSession).metadata).length === 0)).toBe(true);
    // Once redacted, the same answer again.
    expect((await stripe.identity.verificationSessions.redact(session.id)).redaction).toEqual({ status: 'redacted' });
  });

  it('redacting a session that requires input cancels it first', async () => {
    const session = await createSession();
    const redacting = await stripe.identity.verificationSessions.redact(session.id);
    expect(redacting).toMatchObject({ status: 'canceled', redaction: { status: 'processing' }, url: null });
    await waitForEvent(session.id, 'identity.verification_session.canceled');
    await waitForEvent(session.id, 'identity.verification_session.redacted');
  });

  it('delivers only the session events to an endpoint enabled for identity.verification_session.*, signed with its secret', async () => {
    const before = hooks.received.length;
    const customer = await stripe.customers.create({ email: 'not-identity@example.com' });
    const session = await createSession();
    await waitForEvent(session.id, 'identity.verification_session.created');
    expect(hooks.received.slice(before).some((r) => r.body.includes(customer.id))).toBe(false);
    expect(hooks.events(SECRET).every((e) => e.type.startsWith('identity.verification_session.'))).toBe(true);
    const last = hooks.received.at(-1)!;
    expect(() => Stripe.webhooks.constructEvent(last.body, last.signature, 'whsec_another_secret')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });
});
