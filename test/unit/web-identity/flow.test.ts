import { ApiError, UnexpectedAnswerError } from '../../../web/src/api/client';
import { IdentityApiError } from '../../../web/src/pages/founding-identity/api';
import {
  PROBLEM_TEXTS,
  RETURN_READS,
  TOKEN_STORAGE_KEY,
  VERIFICATION_FALLBACKS,
  identityLink,
  photoCountText,
  placeFields,
  problemOf,
  refreshInterval,
  selfieMessage,
  stepOf,
  tokenForTab,
  tokenFromHash,
  triesLeftText,
  untilText,
  verificationProblem,
  verificationView,
  verifiesWithSelfie,
} from '../../../web/src/pages/founding-identity/flow';
import { SELFIE_RESULT_TEXTS } from '../../../events/identity-values';
import type { IdentityStatus } from '../../../events/identity';
import { TOKEN, status } from './support';

const CONTACT = 'help@identity.test';
const signed = { ...status().consent, signedAt: '2026-11-28T10:00:00.000Z' };

describe('the token of a link', () => {
  it('is read from the fragment only when it is one of ours', () => {
    expect(tokenFromHash(`#token=${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromHash(`#other=1&token=${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromHash(`#token=${TOKEN.slice(0, 40)}`)).toBeUndefined();
    expect(tokenFromHash(`#token=${TOKEN.slice(0, 42)}!`)).toBeUndefined();
    expect(tokenFromHash('')).toBeUndefined();
    expect(tokenFromHash('#')).toBeUndefined();
  });

  it('goes into the handoff link as a fragment of the identity page', () => {
    const link = identityLink('https://humanly.example/', TOKEN);
    expect(link).toBe(`https://humanly.example/founding/identity#token=${TOKEN}`);
    expect(new URL(link).search).toBe('');
    expect(tokenFromHash(new URL(link).hash)).toBe(TOKEN);
  });
});

describe('the token kept for this tab', () => {
  /** A tab's sessionStorage. */
  const tab = (kept?: string) => {
    const items = new Map<string, string>(kept === undefined ? [] : [[TOKEN_STORAGE_KEY, kept]]);
    return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
  };
  const OTHER = 'x'.repeat(43);

  it('keeps the token of the link, which wins over one kept before', () => {
    const storage = tab(OTHER);
    expect(tokenForTab(`#token=${TOKEN}`, storage)).toEqual({ token: TOKEN, fromLink: true });
    expect(storage.items.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
  });

  it("reads the kept token on the way back from Stripe's page, which has no fragment", () => {
    expect(tokenForTab('', tab(TOKEN))).toEqual({ token: TOKEN, fromLink: false });
    expect(tokenForTab('', tab())).toEqual({ token: undefined, fromLink: false });
    expect(tokenForTab('', tab('not-a-token'))).toEqual({ token: undefined, fromLink: false });
    expect(tokenForTab('', undefined)).toEqual({ token: undefined, fromLink: false });
  });

  it('still opens from the link when the storage is blocked', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(tokenForTab(`#token=${TOKEN}`, blocked)).toEqual({ token: TOKEN, fromLink: true });
    expect(tokenForTab('', blocked)).toEqual({ token: undefined, fromLink: false });
  });
});

describe('where the flow resumes', () => {
  const verification = (state: IdentityStatus['verification']['state'], sessionsLeft = 5) => ({ state, sessionsLeft });
  it.each([
    ['not signed yet', status(), 'consent'],
    ['signed but the face answer is missing', status({ consent: signed }), 'consent'],
    ['declined face checks, ID not verified yet', status({ consent: signed, faceConsent: 'declined', state: 'manual' }), 'verify'],
    ['consented, ID not verified yet', status({ consent: signed, faceConsent: 'given', state: 'checking' }), 'verify'],
    ['Stripe is checking', status({ consent: signed, faceConsent: 'given', verification: verification('processing') }), 'verify'],
    ['Stripe could not verify', status({ consent: signed, faceConsent: 'given', verification: verification('failed') }), 'verify'],
    ['under 18', status({ consent: signed, faceConsent: 'given', verification: verification('under-18') }), 'verify'],
    ['verified', status({ consent: signed, faceConsent: 'given', state: 'checked', verification: verification('verified') }), 'done'],
    ['verified, face checks declined', status({ consent: signed, faceConsent: 'declined', state: 'manual', verification: verification('verified') }), 'done'],
  ] as const)('%s: %s', (_what, answer, step) => {
    expect(stepOf(answer)).toBe(step);
  });

  it('asks Stripe for a selfie only with face checks agreed to', () => {
    expect(verifiesWithSelfie({ faceConsent: 'given' })).toBe(true);
    for (const faceConsent of ['declined', 'withdrawn', 'pending'] as const) expect(verifiesWithSelfie({ faceConsent })).toBe(false);
  });

  it.each([
    [verification('not-started'), false, 'start'],
    [verification('not-started', 0), false, 'none-left'],
    [verification('started'), false, 'unfinished'],
    [verification('started'), true, 'returning'],
    [verification('started', 0), false, 'unfinished'],
    [verification('processing'), false, 'processing'],
    [verification('verified'), true, 'verified'],
    [verification('under-18', 0), false, 'under-18'],
    [verification('failed', 2), false, 'failed'],
    [verification('canceled', 1), true, 'failed'],
    [verification('failed', 0), false, 'none-left'],
    [verification('canceled', 0), false, 'none-left'],
  ] as const)('shows %j (just back from Stripe: %s) as %s', (v, justReturned, view) => {
    expect(verificationView(v, justReturned)).toBe(view);
  });

  it('reads again by itself only while a result is on its way, slower once Stripe takes long', () => {
    expect(refreshInterval('returning', 3)).toBe(2000);
    expect(refreshInterval('processing', 1)).toBe(3000);
    expect(refreshInterval('processing', 40)).toBe(15_000);
    for (const view of ['start', 'unfinished', 'failed', 'none-left', 'under-18', 'verified'] as const) expect(refreshInterval(view, 1)).toBe(false);
    // Back from Stripe with the session still open: about 30 seconds of reads before it reads as unfinished.
    expect(RETURN_READS * 2000).toBeLessThanOrEqual(30_000);
  });

  it("words a verification that did not go through with the server's reason, else ours", () => {
    expect(verificationProblem({ state: 'failed', sessionsLeft: 2, message: 'The photo of your ID was blurred.' })).toBe('The photo of your ID was blurred.');
    expect(verificationProblem({ state: 'failed', sessionsLeft: 2 })).toBe(VERIFICATION_FALLBACKS.failed);
    expect(verificationProblem({ state: 'canceled', sessionsLeft: 2 })).toBe(VERIFICATION_FALLBACKS.canceled);
    expect(triesLeftText(1)).toBe('You can try once more.');
    expect(triesLeftText(3)).toBe('You can try 3 more times.');
  });

  it("tells the selfie's result only when it needs no person's look, and only after face consent", () => {
    const given = { consent: signed, faceConsent: 'given' } as const;
    expect(selfieMessage(status({ ...given, selfie: { state: 'match', message: SELFIE_RESULT_TEXTS.match } }))).toBe(SELFIE_RESULT_TEXTS.match);
    expect(selfieMessage(status({ ...given, selfie: { state: 'waiting-for-photos' } }))).toMatch(/as soon as they have been checked/);
    for (const state of ['no-match', 'copy', 'no-face'] as const) {
      expect(selfieMessage(status({ ...given, selfie: { state, message: 'as stored' } }))).toBe('A reviewer compares the selfie you took with Stripe with your photos.');
    }
    expect(selfieMessage(status({ ...given }))).toBeUndefined();
    expect(selfieMessage(status({ consent: signed, faceConsent: 'withdrawn', selfie: { state: 'match' } }))).toBeUndefined();
  });
});

describe('what a failure says', () => {
  it('sends an expired, unknown or malformed link to the latest email or to us, on each page', () => {
    for (const err of [new ApiError('gone', 410, 'expired'), new ApiError('nope', 404), new IdentityApiError('bad', 400, 'bad', { token: 'token is not a link of ours' })]) {
      const identity = problemOf(err, 'identity', CONTACT);
      expect(identity).toEqual({ kind: 'link', text: PROBLEM_TEXTS.identityLink(CONTACT), fields: {} });
      expect(identity.text).toContain(CONTACT);
      expect(problemOf(err, 'photos', CONTACT).text).toBe(PROBLEM_TEXTS.photosLink(CONTACT));
    }
  });

  it('asks to wait after too many tries, keeping the server’s reason', () => {
    expect(problemOf(new ApiError('slow down', 429), 'identity', CONTACT)).toEqual({ kind: 'retry', text: PROBLEM_TEXTS.tooMany, fields: {} });
    expect(problemOf(new ApiError('x', 429, 'At most 20 tries an hour.'), 'identity', CONTACT).text).toBe(`${PROBLEM_TEXTS.tooMany} (At most 20 tries an hour.)`);
  });

  it('tells a network failure, our failure and an unreadable answer apart', () => {
    expect(problemOf(new ApiError('offline', 0), 'identity', CONTACT).text).toBe(PROBLEM_TEXTS.network);
    expect(problemOf(new ApiError('boom', 503, 'Service Unavailable'), 'identity', CONTACT).text).toBe(PROBLEM_TEXTS.server);
    expect(problemOf(new UnexpectedAnswerError('odd', 200), 'identity', CONTACT).text).toBe(PROBLEM_TEXTS.unreadable);
    expect(problemOf(new Error('Your photos could not be sent.'), 'identity', CONTACT)).toEqual({ kind: 'retry', text: 'Your photos could not be sent.', fields: {} });
  });

  it("keeps a refusal's fields for their controls, and its own text otherwise", () => {
    const fields = { typedName: 'Type the full name you applied with.', consentVersion: 'This consent text is out of date.' };
    expect(problemOf(new IdentityApiError('x', 400, 'x', fields), 'identity', CONTACT)).toEqual({ kind: 'fields', text: PROBLEM_TEXTS.fields, fields });
    expect(problemOf(new ApiError('x', 409, 'The consent is already signed.'), 'identity', CONTACT)).toEqual({ kind: 'retry', text: 'The consent is already signed.', fields: {} });
  });

  it('places the fields a form has and reads the others in the alert', () => {
    const problem = problemOf(new IdentityApiError('x', 400, 'x', { typedName: 'Wrong name.', keys: 'Upload at least one new photo.' }), 'photos', CONTACT);
    expect(placeFields(problem, ['typedName'])).toEqual({ byField: { typedName: 'Wrong name.' }, alert: `${PROBLEM_TEXTS.fields} Upload at least one new photo.` });
    expect(placeFields(problem, [])).toEqual({ byField: {}, alert: 'Wrong name. Upload at least one new photo.' });
    const placedAll = placeFields(problemOf(new IdentityApiError('x', 400, 'x', { typedName: 'Wrong name.' }), 'identity', CONTACT), ['typedName']);
    expect(placedAll).toEqual({ byField: { typedName: 'Wrong name.' }, alert: PROBLEM_TEXTS.fields });
  });
});

describe('the replace page words', () => {
  it('counts usable photos and those still needed', () => {
    expect(photoCountText({ total: 31, usable: 27, needed: 3 })).toBe('27 of 31 photos are usable; 3 more usable photos are needed.');
    expect(photoCountText({ total: 30, usable: 29, needed: 1 })).toBe('29 of 30 photos are usable; 1 more usable photo is needed.');
    expect(photoCountText({ total: 32, usable: 30, needed: 0 })).toBe('30 of 32 photos are usable: that is enough.');
  });

  it("says until when the link works in the reader's time", () => {
    // ICU versions differ in the punctuation between the parts, not in the parts.
    const utc = untilText('2026-12-07T14:30:00.000Z', 'en-GB', 'UTC');
    for (const part of ['Monday', '7 December 2026', '14:30']) expect(utc).toContain(part);
    const tokyo = untilText('2026-12-07T20:30:00.000Z', 'en-GB', 'Asia/Tokyo');
    for (const part of ['Tuesday', '8 December 2026', '05:30']) expect(tokyo).toContain(part);
  });
});
