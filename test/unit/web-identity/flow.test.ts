import { ApiError, UnexpectedAnswerError } from '../../../web/src/api/client';
import { IdentityApiError } from '../../../web/src/pages/founding-identity/api';
import { PROBLEM_TEXTS, identityLink, photoCountText, placeFields, problemOf, selfieMessage, stepOf, tokenFromHash, untilText } from '../../../web/src/pages/founding-identity/flow';
import { SELFIE_RESULT_TEXTS } from '../../../events/identity-values';
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

describe('where the flow resumes', () => {
  it.each([
    ['not signed yet', status(), 'consent'],
    ['signed but the face answer is missing', status({ consent: signed }), 'consent'],
    ['declined face checks', status({ consent: signed, faceConsent: 'declined', state: 'manual' }), 'done'],
    ['consented, no selfie yet', status({ consent: signed, faceConsent: 'given', state: 'checking' }), 'selfie'],
    ['no face in the selfie', status({ consent: signed, faceConsent: 'given', selfie: { state: 'no-face', message: SELFIE_RESULT_TEXTS['no-face'] } }), 'selfie'],
    ['two faces in the selfie', status({ consent: signed, faceConsent: 'given', selfie: { state: 'several-faces' } }), 'selfie'],
    ['another person in the selfie', status({ consent: signed, faceConsent: 'given', selfie: { state: 'no-match' } }), 'selfie'],
    ['selfie matches', status({ consent: signed, faceConsent: 'given', state: 'checked', selfie: { state: 'match' } }), 'done'],
    ['selfie waits for the photos', status({ consent: signed, faceConsent: 'given', selfie: { state: 'waiting-for-photos' } }), 'done'],
    ['no photo to compare with', status({ consent: signed, faceConsent: 'given', selfie: { state: 'no-set' } }), 'done'],
  ] as const)('%s: %s', (_what, answer, step) => {
    expect(stepOf(answer)).toBe(step);
  });

  it("words the selfie with the server's text, and ours while it waits for the photos", () => {
    expect(selfieMessage(status({ selfie: { state: 'no-match', message: SELFIE_RESULT_TEXTS['no-match'] } }))).toBe(SELFIE_RESULT_TEXTS['no-match']);
    expect(selfieMessage(status({ selfie: { state: 'waiting-for-photos' } }))).toMatch(/as soon as they have been checked/);
    expect(selfieMessage(status())).toBeUndefined();
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
    expect(problemOf(new ApiError('x', 429, 'At most 5 selfies an hour.'), 'identity', CONTACT).text).toBe(`${PROBLEM_TEXTS.tooMany} (At most 5 selfies an hour.)`);
  });

  it('tells a network failure, our failure and an unreadable answer apart', () => {
    expect(problemOf(new ApiError('offline', 0), 'identity', CONTACT).text).toBe(PROBLEM_TEXTS.network);
    expect(problemOf(new ApiError('boom', 503, 'Service Unavailable'), 'identity', CONTACT).text).toBe(PROBLEM_TEXTS.server);
    expect(problemOf(new UnexpectedAnswerError('odd', 200), 'identity', CONTACT).text).toBe(PROBLEM_TEXTS.unreadable);
    expect(problemOf(new Error('Your selfie could not be sent.'), 'identity', CONTACT)).toEqual({ kind: 'retry', text: 'Your selfie could not be sent.', fields: {} });
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
