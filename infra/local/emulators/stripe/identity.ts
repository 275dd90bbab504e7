// Stripe Identity in the Stripe emulator: VerificationSessions (type `document`, with or without a
// matching selfie), their hosted verification page (identity-page.ts), the VerificationReport of
// each submission and the files it uploaded (files.ts), cancellation and redaction, and the
// `identity.verification_session.*` events, as test mode goes: requires_input -> processing ->
// verified, or back to requires_input with `last_error`.
import type Stripe from 'stripe';
import { type Api, found, newest, page, refOf } from './api';
import { invalid, mergeMetadata, missing, type Reader } from './form';
import { findingsOf, type Submission } from './identity-checks';
import * as o from './objects';
import type { Files, StoredUpload } from './files';
import type { Store } from './store';
import type { Webhooks } from './webhooks';

type Session = Stripe.Identity.VerificationSession;
type Report = Stripe.Identity.VerificationReport;

interface IdentityOptions {
  /** How long a submission stays `processing` before its outcome (Stripe's test mode: a few seconds). */
  processingMs: number;
  /** How long a redaction stays `processing` before `redacted` (Stripe: up to four days). */
  redactionMs: number;
}

interface SessionState {
  token: string;
  returnUrl: string | null;
  /** The verified outputs with their `dob` (answers show `dob` only when expanded). */
  outputs: Stripe.Identity.VerificationSession.VerifiedOutputs | null;
  files: string[];
  /** `provided_details` (answered only when expanded). */
  details: Stripe.Identity.VerificationSession.ProvidedDetails;
}

const ALLOWED_TYPES = ['driving_license', 'id_card', 'passport'] as const;
const REDACTED = '[redacted]';

export class Identity {
  readonly sessions = new Map<string, Session>();
  /** Each report as kept, with the document's `dob` (answers show it only when expanded). */
  readonly reports = new Map<string, Report>();
  private readonly state = new Map<string, SessionState>();
  private readonly byToken = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly s: Store,
    private readonly files: Files,
    private readonly webhooks: Pick<Webhooks, 'events'>,
    private readonly options: IdentityOptions,
  ) {}

  /** The emulator's clock, in Unix seconds. */
  now(): number {
    return this.s.clocks.now(null);
  }

  session(id: string, param = 'session'): Session {
    const v = this.sessions.get(id);
    if (!v) throw missing('identity.verification_session', id, param);
    return v;
  }

  sessionOfToken(token: string): { session: Session; returnUrl: string | null } | undefined {
    const id = this.byToken.get(token);
    const session = id ? this.sessions.get(id) : undefined;
    return session && { session, returnUrl: this.state.get(session.id)!.returnUrl };
  }

  create(r: Reader): Session {
    if (r.has('verification_flow')) throw invalid('The emulator serves VerificationSessions of `type=document`, not verification flows.', 'verification_flow');
    const type = r.oneOf('type', ['document', 'id_number'] as const);
    if (!type) throw invalid('Missing required param: type.', 'type', 'parameter_missing');
    if (type !== 'document') throw invalid('The emulator serves VerificationSessions of `type=document` only.', 'type');
    const options = readOptions(r);
    const customer = r.string('related_customer');
    if (customer) this.s.customer(customer, 'related_customer');
    const details = readDetails(r) ?? {};
    const id = o.newId('vs');
    const token = `test_${o.randomText(40)}`;
    const session = o.verificationSession({
      id,
      url: this.s.url(`/verify/start/${token}`),
      clientSecret: `${id}_secret_test_${o.randomText(40)}`,
      clientReferenceId: r.string('client_reference_id', { max: 5000 }) ?? null,
      metadata: r.metadata() ?? {},
      options: { document: options },
      relatedCustomer: customer ?? null,
      created: this.s.clocks.now(null),
    });
    const returnUrl = r.url('return_url') ?? null;
    r.done();
    this.sessions.set(id, session);
    this.state.set(id, { token, returnUrl, outputs: null, files: [], details });
    this.byToken.set(token, id);
    this.s.emit('identity.verification_session.created', session, null);
    return session;
  }

  update(id: string, r: Reader): Session {
    const v = this.session(id, 'session');
    if (v.redaction) throw invalid('This VerificationSession has been redacted and can no longer be updated.', undefined);
    if (v.status !== 'requires_input') throw wrongStatus(v, 'updated');
    const type = r.oneOf('type', ['document', 'id_number'] as const);
    if (type && type !== 'document') throw invalid('The emulator serves VerificationSessions of `type=document` only.', 'type');
    if (r.has('options')) v.options = { document: readOptions(r) };
    const details = readDetails(r);
    if (details) this.state.get(id)!.details = details;
    v.metadata = mergeMetadata(v.metadata, r.metadata());
    r.done();
    return v;
  }

  cancel(id: string): Session {
    const v = this.session(id, 'session');
    if (v.status !== 'requires_input') throw wrongStatus(v, 'canceled');
    this.toCanceled(v);
    return v;
  }

  private toCanceled(v: Session): void {
    v.status = 'canceled';
    v.url = null;
    v.client_secret = null;
    this.s.emit('identity.verification_session.canceled', v, null);
  }

  /** Redaction: the metadata at once; the outputs, reports and files once `redacted` (a `requires_input` session is canceled first). */
  redact(id: string): Session {
    const v = this.session(id, 'session');
    if (v.redaction) return v;
    if (v.status === 'processing') {
      throw invalid('This VerificationSession is being processed and cannot be redacted now: redact it once it is `verified` or `requires_input`.', undefined);
    }
    if (v.status === 'requires_input') this.toCanceled(v);
    v.redaction = { status: 'processing' };
    v.metadata = {};
    this.later(this.options.redactionMs, () => this.finishRedaction(v));
    return v;
  }

  private finishRedaction(v: Session): void {
    const st = this.state.get(v.id)!;
    if (st.outputs) st.outputs = { ...st.outputs, first_name: REDACTED, last_name: REDACTED, dob: null };
    st.details = {};
    for (const report of this.reports.values()) {
      if (report.verification_session !== v.id) continue;
      const doc = report.document;
      if (doc) {
        Object.assign(doc, { files: [], dob: null, expiration_date: null, issued_date: null });
        if (doc.first_name !== null) doc.first_name = REDACTED;
        if (doc.last_name !== null) doc.last_name = REDACTED;
      }
      if (report.selfie) Object.assign(report.selfie, { selfie: null, document: null });
    }
    for (const file of st.files) this.files.remove(file);
    st.files = [];
    // The session's events are redacted with it: their copies lose the metadata too.
    for (const event of this.webhooks.events) {
      const object = event.data.object as { id?: string; metadata?: Stripe.Metadata };
      if (object.id === v.id) object.metadata = {};
    }
    v.redaction = { status: 'redacted' };
    this.s.emit('identity.verification_session.redacted', v, null);
    this.s.log(`${v.id}: redacted`);
  }

  /** Stores an uploaded image as a file of `purpose`, readable at its `url` with the secret key. */
  storeFile(sessionId: string, purpose: 'identity_document_downloadable' | 'selfie', upload: StoredUpload): string {
    const id = this.files.add(purpose, upload);
    this.state.get(sessionId)!.files.push(id);
    return id;
  }

  /** A submission of the hosted page: `processing` now, its outcome after `processingMs`. */
  submit(v: Session, sub: Submission): void {
    v.status = 'processing';
    v.last_error = null;
    v.url = null;
    v.client_secret = null;
    this.s.emit('identity.verification_session.processing', v, null);
    this.later(this.options.processingMs, () => this.decide(v, sub));
  }

  private decide(v: Session, sub: Submission): void {
    if (v.status !== 'processing') return;
    const findings = findingsOf(sub, new Date(this.s.clocks.now(null) * 1000));
    const report = o.verificationReport({
      id: o.newId('vr'),
      session: v.id,
      clientReferenceId: v.client_reference_id,
      options: { document: { ...v.options?.document } },
      document: findings.document,
      selfie: findings.selfie,
      created: this.s.clocks.now(null),
    });
    this.reports.set(report.id, report);
    v.last_verification_report = report.id;
    const st = this.state.get(v.id)!;
    if (findings.outputs) {
      st.outputs = findings.outputs;
      v.status = 'verified';
      this.s.emit('identity.verification_session.verified', v, null);
    } else {
      v.status = 'requires_input';
      v.last_error = findings.lastError;
      v.url = this.s.url(`/verify/start/${st.token}`);
      v.client_secret = `${v.id}_secret_test_${o.randomText(40)}`;
      this.s.emit('identity.verification_session.requires_input', v, null);
    }
    this.s.log(`${v.id}: ${v.status}${v.last_error ? ` (${v.last_error.code})` : ''}`);
  }

  /** A report as answered: the document's `dob` only when expanded. */
  reportView(report: Report): Report {
    const copy = structuredClone(report);
    if (copy.document) delete copy.document.dob;
    return copy;
  }

  /** Any Identity object by id, for expansion (`expand[]=last_verification_report`). */
  lookup(id: string): { id: string; object: string } | undefined {
    const report = this.reports.get(id);
    return this.sessions.get(id) ?? (report && this.reportView(report));
  }

  /** `verified_outputs` of a session, and the `dob` of its outputs or of a report's document: what Stripe shows only when expanded. */
  includable(obj: Record<string, unknown>, field: string, within: Array<Record<string, unknown>>): unknown {
    if (obj.object === 'identity.verification_session' && field === 'provided_details') return structuredClone(this.state.get(String(obj.id))?.details ?? null);
    if (obj.object === 'identity.verification_session' && field === 'verified_outputs') {
      const outputs = this.state.get(String(obj.id))?.outputs;
      if (!outputs) return null;
      const { dob: _dob, ...shown } = outputs;
      return structuredClone(shown);
    }
    const owner = within.at(-1);
    if (field !== 'dob' || !owner) return undefined;
    if (owner.object === 'identity.verification_session' && owner.verified_outputs === obj) return structuredClone(this.state.get(String(owner.id))?.outputs?.dob ?? null);
    if (owner.object === 'identity.verification_report' && owner.document === obj) return structuredClone(this.reports.get(String(owner.id))?.document?.dob ?? null);
    return undefined;
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  routes(api: Api): void {
    const base = '/v1/identity/verification_sessions';
    api.on('POST', base, (r) => this.create(r));
    api.on('GET', base, (r) => {
      const status = r.oneOf('status', ['requires_input', 'processing', 'verified', 'canceled'] as const);
      const ref = r.string('client_reference_id');
      const customer = r.string('related_customer');
      const all = newest(this.sessions.values()).filter((v) => (!status || v.status === status) && (!ref || v.client_reference_id === ref) && (!customer || refOf(v.related_customer) === customer));
      return page(all, r, base, 'identity.verification_session');
    });
    api.on('GET', `${base}/:id`, (_r, [id]) => this.session(id, 'session'));
    api.on('POST', `${base}/:id`, (r, [id]) => this.update(id, r));
    api.on('POST', `${base}/:id/cancel`, (_r, [id]) => this.cancel(id));
    api.on('POST', `${base}/:id/redact`, (_r, [id]) => this.redact(id));
    api.on('GET', '/v1/identity/verification_reports', (r) => {
      const session = r.string('verification_session');
      const ref = r.string('client_reference_id');
      r.oneOf('type', ['document', 'id_number'] as const);
      const all = newest(this.reports.values()).filter((x) => (!session || x.verification_session === session) && (!ref || x.client_reference_id === ref));
      return page(all.map((x) => this.reportView(x)), r, '/v1/identity/verification_reports', 'identity.verification_report');
    });
    api.on('GET', '/v1/identity/verification_reports/:id', (_r, [id]) => this.reportView(found(this.reports.get(id), 'identity.verification_report', id)));
  }
}

/** `options[document]`: the checks asked for (Stripe echoes the options given, and only those). */
function readOptions(r: Reader): Stripe.Identity.VerificationSession.Options.Document {
  const options = r.hash('options');
  const doc = options?.hash('document');
  options?.done();
  if (!doc) return {};
  const out: Stripe.Identity.VerificationSession.Options.Document = {};
  const types = doc.strings('allowed_types');
  if (types !== undefined) {
    if (types.length === 0) throw invalid('Invalid options[document][allowed_types]: give at least one of driving_license, id_card, passport.', 'options[document][allowed_types]');
    for (const t of types) {
      if (!(ALLOWED_TYPES as readonly string[]).includes(t)) throw invalid(`Invalid options[document][allowed_types][]: must be one of ${ALLOWED_TYPES.join(', ')}`, 'options[document][allowed_types]');
    }
    out.allowed_types = [...new Set(types)];
  }
  if (doc.boolean('require_id_number')) throw invalid('The emulator does not collect ID numbers: leave out options[document][require_id_number].', 'options[document][require_id_number]');
  const live = doc.boolean('require_live_capture');
  if (live !== undefined) out.require_live_capture = live;
  const selfie = doc.boolean('require_matching_selfie');
  if (selfie !== undefined) out.require_matching_selfie = selfie;
  doc.done();
  return out;
}

/** `provided_details[email|phone]`, as given. */
function readDetails(r: Reader): Stripe.Identity.VerificationSession.ProvidedDetails | undefined {
  const details = r.hash('provided_details');
  if (!details) return undefined;
  const email = details.string('email', { max: 800 });
  const phone = details.string('phone', { max: 40 });
  details.done();
  return { ...(email && { email }), ...(phone && { phone }) };
}

const wrongStatus = (v: Session, what: string) =>
  invalid(`This VerificationSession has a status of \`${v.status}\`: only VerificationSessions with a status of \`requires_input\` can be ${what}.`);
