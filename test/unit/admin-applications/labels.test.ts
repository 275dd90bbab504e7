import type { ApplicationDetail, PhotoResult } from '../../../events/founding';
import { IDENTITY_REASON_REQUIRED, ReviewIdentity } from '../../../events/identity';
import { FACE_FINDING_CODES, FACE_FINDING_TEXTS, SELFIE_RESULT_TEXTS } from '../../../events/identity-values';
import {
  comparisonPhotos,
  decisionRequest,
  findingLabel,
  galleryPhotos,
  identityReasonError,
  identityStateText,
  notUsable,
  reasonRule,
  scoreText,
  selfieResultText,
  shortHash,
  summaryText,
} from '../../../admin/src/applications/labels';

// The review console's words for the identity check and the accept dialog's reason rule, on
// fixtures checked against the API's contract (events/identity.ts).
const identity = (over: Partial<ReviewIdentity>): ReviewIdentity =>
  ReviewIdentity.parse({
    state: 'checked',
    faceConsent: 'given',
    summary: { total: 30, usable: 27, counts: { 'another-person': 1, 'no-face': 2 } },
    selfie: { state: 'match', score: 0.83, threshold: 0.55, takenAt: '2026-11-27T10:00:00.000Z' },
    ...over,
  });

const photo = (index: number): ApplicationDetail['photos'][number] => ({
  index,
  width: 600,
  height: 600,
  thumbnailUrl: `https://photos.test/thumbs/${index}.jpg`,
  url: `https://photos.test/photos/${index}.jpg`,
});
const finding = (code: (typeof FACE_FINDING_CODES)[number], of?: number) => ({ code, message: FACE_FINDING_TEXTS[code], ...(of === undefined ? {} : { of }) });

describe('console identity: the findings summary', () => {
  it('reads the counts in the order of the finding codes, whatever order they come in', () => {
    expect(summaryText(identity({}).summary!)).toBe('27 usable · 2 no face · 1 another person');
  });

  it('leaves out the findings nobody has, and counts duplicates in the plural', () => {
    const summary = { total: 40, usable: 33, counts: { duplicate: 2, 'too-dark': 0, blurred: 1, 'face-too-small': 3, 'several-faces': 1 } };
    expect(summaryText(summary)).toBe('33 usable · 1 several faces · 3 face too small · 1 blurred · 2 duplicates');
  });

  it('says only how many are usable when nothing was found', () => {
    expect(summaryText({ total: 30, usable: 30, counts: {} })).toBe('30 usable');
  });
});

describe('console identity: badges', () => {
  const none = () => undefined;
  it.each([
    ['no-face', 'No face'],
    ['several-faces', 'Several faces'],
    ['face-too-small', 'Face too small'],
    ['blurred', 'Blurred'],
    ['too-dark', 'Too dark'],
    ['another-person', 'Another person'],
  ] as const)('labels %s "%s"', (code, label) => {
    expect(findingLabel(finding(code), none)).toBe(label);
  });

  it('names the photo a duplicate repeats by its number in the gallery, not its stored index', () => {
    // Stored indexes 0, 2, 5 (1, 3, 4 were not accepted): the photo stored at 5 is #3.
    const photos = galleryPhotos([photo(0), photo(2), photo(5)], []);
    const numberOf = (index: number) => photos.find((p) => p.photo.index === index)?.number;
    expect(findingLabel(finding('duplicate', 5), numberOf)).toBe('Duplicate of #3');
    expect(findingLabel(finding('duplicate', 1), numberOf)).toBe('Duplicate');
    expect(findingLabel(finding('duplicate'), numberOf)).toBe('Duplicate');
  });

  it('joins each photo with its result by stored index, and filters the ones not usable in the set', () => {
    const results: PhotoResult[] = [
      { source: 'a.jpg', accepted: true, index: 0, usable: true, findings: [] },
      { source: 'b.jpg', accepted: false, reason: 'Too small' },
      { source: 'c.jpg', accepted: true, index: 2, usable: false, findings: [finding('no-face')] },
      { source: 'd.jpg', accepted: true, index: 3, usable: false, findings: [finding('blurred')], replacedAt: '2026-11-28T09:00:00.000Z' },
      { source: 'e.jpg', accepted: true, index: 4 },
    ];
    const photos = galleryPhotos([photo(0), photo(2), photo(3), photo(4)], results);
    expect(photos.map((p) => [p.number, p.photo.index, p.usable, p.findings.map((f) => f.code), p.replaced])).toEqual([
      [1, 0, true, [], false],
      [2, 2, false, ['no-face'], false],
      [3, 3, false, ['blurred'], true],
      [4, 4, undefined, [], false],
    ]);
    expect(photos.filter(notUsable).map((p) => p.number)).toEqual([2]);
    expect(galleryPhotos([photo(0)], undefined)[0]).toMatchObject({ usable: undefined, findings: [], replaced: false });
  });

  it('compares the selfie with usable photos still in the set, spread across it', () => {
    const results: PhotoResult[] = Array.from({ length: 9 }, (_, i) => ({ source: `${i}.jpg`, accepted: true, index: i, usable: i !== 0, findings: i === 0 ? [finding('no-face')] : [], ...(i === 1 ? { replacedAt: '2026-11-28T09:00:00.000Z' } : {}) }));
    const photos = galleryPhotos(results.map((r) => photo(r.index!)), results);
    expect(comparisonPhotos(photos).map((p) => p.photo.index)).toEqual([2, 4, 6]);
    expect(comparisonPhotos(photos.slice(0, 4)).map((p) => p.photo.index)).toEqual([2, 3]);
  });

  it('shortens a hash to its first and last digits', () => {
    const hash = 'a'.repeat(10) + 'b'.repeat(50) + 'cdef';
    expect(shortHash(hash)).toBe('aaaaaaaaaa…cdef');
    expect(shortHash('abc')).toBe('abc');
  });
});

describe('console identity: where it stands', () => {
  it.each([
    [{ state: 'awaiting-consent', faceConsent: 'pending' }, 'Waiting for the applicant’s consent'],
    [{ state: 'manual', faceConsent: 'declined' }, 'Reviewed by hand: face checks declined'],
    [{ state: 'manual', faceConsent: 'pending' }, 'Reviewed by hand: face checks not agreed to'],
    [{ state: 'checking', faceConsent: 'given' }, 'Checking the photos'],
    [{ state: 'awaiting-photos', faceConsent: 'given' }, 'Waiting for replacement photos'],
    [{ state: 'checked', faceConsent: 'given' }, 'Checked'],
  ] as const)('reads %j as "%s"', (over, text) => {
    expect(identityStateText(identity(over))).toBe(text);
  });

  it('says until when replacement photos are awaited', () => {
    const text = identityStateText(identity({ state: 'awaiting-photos', replaceBy: '2026-12-04T10:00:00.000Z' }));
    expect(text).toMatch(/^Waiting for replacement photos until 4 Dec 2026, \d\d:\d\d$/);
  });

  it('gives the selfie’s score against the threshold, and its result in words', () => {
    expect(scoreText({ score: 0.8312, threshold: 0.55 })).toBe('0.83, matches from 0.55');
    expect(scoreText({ score: 0.4 })).toBe('0.40');
    expect(scoreText({ threshold: 0.55 })).toBeUndefined();
    expect(selfieResultText({ state: 'no-match' })).toBe(SELFIE_RESULT_TEXTS['no-match']);
    expect(selfieResultText({ state: 'no-match', message: 'As stored.' })).toBe('As stored.');
    expect(selfieResultText({ state: 'none' })).toMatch(/not taken/);
  });
});

describe('console identity: the accept dialog’s reason rule', () => {
  const mismatch = identity({ selfie: { state: 'no-match', score: 0.31, threshold: 0.55 } });

  it('asks for a reason to accept a selfie that does not match, and waits for words in it', () => {
    expect(reasonRule('accept', mismatch, '')).toEqual({ shown: true, missing: true });
    expect(reasonRule('accept', mismatch, '  \n ')).toEqual({ shown: true, missing: true });
    expect(reasonRule('accept', mismatch, 'Same scar on the chin in photos 3 and 9.')).toEqual({ shown: true, missing: false });
  });

  it('asks for one when faces were checked but no selfie was taken', () => {
    expect(reasonRule('accept', identity({ selfie: undefined }), '').missing).toBe(true);
    expect(reasonRule('accept', identity({ selfie: { state: 'no-face' } }), '').missing).toBe(true);
  });

  it('does not ask when the selfie matches, when faces are reviewed by hand, for a rejection, or on an older application', () => {
    expect(reasonRule('accept', identity({}), '')).toEqual({ shown: false, missing: false });
    expect(reasonRule('accept', identity({ state: 'manual', faceConsent: 'declined', selfie: undefined }), '')).toEqual({ shown: false, missing: false });
    expect(reasonRule('reject', mismatch, '')).toEqual({ shown: false, missing: false });
    expect(reasonRule('accept', undefined, '')).toEqual({ shown: false, missing: false });
  });

  it('asks when the server asked, although the page saw a match', () => {
    expect(reasonRule('accept', identity({}), '', true)).toEqual({ shown: true, missing: true });
  });

  it('sends the trimmed reason with an accept that needs one, and only then', () => {
    const fields = { note: 'n', messageToApplicant: 'm', identityReason: '  Checked by video call.  ' };
    expect(decisionRequest('accept', fields, true)).toEqual({ decision: 'accept', note: 'n', messageToApplicant: 'm', identityReason: 'Checked by video call.' });
    expect(decisionRequest('accept', fields, false)).toEqual({ decision: 'accept', note: 'n', messageToApplicant: 'm' });
    expect(decisionRequest('reject', fields, true)).toEqual({ decision: 'reject', note: 'n', messageToApplicant: 'm' });
  });

  it('puts a server refusal naming identityReason on the field, and leaves other refusals alone', () => {
    expect(identityReasonError({ status: 400, body: { error: 'x', fields: { identityReason: 'identityReason must be at most 2000 characters' } } })).toBe(
      'identityReason must be at most 2000 characters',
    );
    expect(identityReasonError({ status: 409, message: IDENTITY_REASON_REQUIRED, body: { error: IDENTITY_REASON_REQUIRED } })).toBe(IDENTITY_REASON_REQUIRED);
    expect(identityReasonError({ status: 409, body: { error: 'This application has already been decided.' } })).toBeUndefined();
    expect(identityReasonError({ status: 400, body: { error: 'note must be a string', fields: { note: 'note must be a string' } } })).toBeUndefined();
    expect(identityReasonError({ status: 500, body: { error: IDENTITY_REASON_REQUIRED } })).toBeUndefined();
    expect(identityReasonError(new Error('Failed to fetch'))).toBeUndefined();
  });
});
