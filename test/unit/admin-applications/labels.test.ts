import type { ApplicationDetail, PhotoResult } from '../../../events/founding';
import { ACCEPT_GATES, IDENTITY_REASON_REQUIRED, ReviewIdentity } from '../../../events/identity';
import { FACE_FINDING_CODES, FACE_FINDING_TEXTS, SELFIE_RESULT_TEXTS } from '../../../events/identity-values';
import {
  ageFindingText,
  attemptText,
  comparisonPhotos,
  copyMeasureText,
  decisionRequest,
  failedCheckText,
  gateTexts,
  findingLabel,
  galleryPhotos,
  identityReasonError,
  identityStateText,
  nameFindingText,
  notUsable,
  reasonRule,
  scoreText,
  selfieFindingText,
  selfieResultText,
  shortHash,
  summaryText,
  verificationText,
} from '../../../admin/src/applications/labels';

// The review console's words for the identity check and the accept dialog's reason rule, on
// fixtures checked against the API's contract (events/identity.ts).
const identity = (over: Partial<ReviewIdentity>): ReviewIdentity =>
  ReviewIdentity.parse({
    state: 'checked',
    faceConsent: 'given',
    summary: { total: 30, usable: 27, counts: { 'another-person': 1, 'no-face': 2 } },
    selfie: { state: 'match', score: 0.83, threshold: 0.55, takenAt: '2026-11-27T10:00:00.000Z' },
    verification: {
      state: 'verified',
      type: 'document-and-selfie',
      verifiedAt: '2026-11-27T10:05:00.000Z',
      name: { result: 'match', verified: 'Noa Reyes', applied: 'Noa Reyes', note: 'same name' },
      age: { result: '18+', checkedOn: '2026-11-27' },
      attempts: [{ sessionId: 'vs_1', createdAt: '2026-11-27T10:00:00.000Z', status: 'verified', updatedAt: '2026-11-27T10:05:00.000Z' }],
    },
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
    expect(selfieResultText({ state: 'none' })).toMatch(/No selfie/);
  });
});

describe('console identity: the ID verification', () => {
  it('says where it stands, "ID verified" once verified, and not started when nothing is recorded', () => {
    expect(verificationText(identity({}).verification)).toBe('ID verified');
    expect(verificationText(undefined)).toBe('ID verification not started');
    expect(verificationText({ state: 'processing' })).toBe('Stripe is checking the ID');
    expect(verificationText({ state: 'under-18' })).toBe('ID verified: under 18');
  });

  it('reads the name finding, with what the rule found', () => {
    expect(nameFindingText({ result: 'match', verified: 'Noa Maria Reyes', applied: 'Noa Reyes', note: 'same name with a middle name' })).toBe(
      'Name matches: Noa Maria Reyes (same name with a middle name)',
    );
    expect(nameFindingText({ result: 'mismatch', verified: 'Noa Reyes', applied: 'Noah Ruiz', note: 'the last name differs' })).toBe(
      'Name does not match: verified Noa Reyes, applied Noah Ruiz — the last name differs',
    );
  });

  it('reads the age finding as the day of the check, never a date of birth', () => {
    expect(ageFindingText({ result: '18+', checkedOn: '2026-12-02' })).toBe('18 or older on 2 December 2026');
    expect(ageFindingText({ result: 'under-18', checkedOn: '2026-12-02' })).toBe('Under 18 on 2 December 2026');
  });

  it('reads the selfie finding: a match, what a copy repeats (by gallery number), or no match', () => {
    const numberOf = (index: number) => (index === 14 ? 12 : undefined);
    expect(selfieFindingText({ state: 'match' })).toBe('The selfie matches the set');
    expect(selfieFindingText({ state: 'match' })).toContain('selfie matches the set');
    expect(selfieFindingText({ state: 'no-match' })).toBe('The selfie does not match the set');
    expect(selfieFindingText({ state: 'copy', copyOf: { kind: 'set-photo', index: 14, distance: 3 } }, numberOf)).toBe('The selfie is a copy of photo 12 of the set');
    expect(selfieFindingText({ state: 'copy', copyOf: { kind: 'set-photo', index: 4 } })).toBe('The selfie is a copy of photo 5 of the set');
    expect(selfieFindingText({ state: 'copy', copyOf: { kind: 'other-application', similarity: 0.97 } })).toBe('The selfie is a copy of a photo in another application');
    expect(selfieFindingText({ state: 'copy', copyOf: { kind: 'earlier-selfie' } })).toBe('The selfie is a copy of an earlier selfie');
    expect(selfieFindingText({ state: 'copy' })).toBe('The selfie is a copy of a photo, not a new selfie');
    expect(selfieFindingText({ state: 'none' })).toMatch(/No selfie/);
    expect(copyMeasureText({ kind: 'set-photo', index: 1, distance: 3 })).toBe('3 of 256 bits apart');
    expect(copyMeasureText({ kind: 'other-application', similarity: 0.966 })).toBe('similarity 0.97');
    expect(copyMeasureText(undefined)).toBeUndefined();
  });

  it("words each attempt's status with Stripe's error, and the checks kept through a withdrawal", () => {
    expect(attemptText({ status: 'verified' })).toBe('Verified');
    expect(attemptText({ status: 'requires_input', error: 'document_unverified_other', errorReason: 'The document was blurred.' })).toBe(
      'Not verified, Stripe asked for another try (document_unverified_other: The document was blurred.)',
    );
    expect(attemptText({ status: 'canceled', error: 'consent_declined' })).toBe('Canceled (consent_declined)');
    expect(failedCheckText({ check: 'selfie-no-match', at: '2026-11-27T10:00:00.000Z' })).toMatch(/^The selfie did not match the set \(27 Nov 2026, \d\d:\d\d\)$/);
  });
});

describe('console identity: the accept dialog’s gates', () => {
  const mismatch = identity({ selfie: { state: 'no-match', score: 0.31, threshold: 0.55 } });
  const none = { identityReason: '', secondProof: '' };
  const both = { identityReason: 'Same scar on the chin in photos 3 and 9.', secondProof: 'Video call on 2 December with the applicant' };

  it('lists each gate with its text, in the order of the contract', () => {
    expect(gateTexts(identity({}))).toEqual([]);
    expect(gateTexts(mismatch)).toEqual([{ gate: 'selfie-mismatch', text: ACCEPT_GATES['selfie-mismatch'] }]);
    const unverified = identity({ state: 'manual', faceConsent: 'declined', selfie: undefined, verification: undefined });
    expect(gateTexts(unverified).map((g) => g.gate)).toEqual(['id-not-verified', 'face-checks-declined']);
    const withdrawn = identity({ faceConsent: 'withdrawn', failedChecks: [{ check: 'selfie-no-match', at: '2026-11-27T10:00:00.000Z' }] });
    expect(gateTexts(withdrawn).map((g) => g.gate)).toEqual(['face-checks-withdrawn', 'check-failed-before']);
    expect(gateTexts(undefined).map((g) => g.gate)).toEqual(['id-not-verified', 'face-checks-declined']);
  });

  it('asks for a reason and a second proof to accept past a gate, and waits for words in both', () => {
    expect(reasonRule('accept', mismatch, none)).toEqual({ shown: true, missing: true });
    expect(reasonRule('accept', mismatch, { ...both, secondProof: '  \n ' })).toEqual({ shown: true, missing: true });
    expect(reasonRule('accept', mismatch, { ...both, identityReason: ' ' })).toEqual({ shown: true, missing: true });
    expect(reasonRule('accept', mismatch, both)).toEqual({ shown: true, missing: false });
  });

  it('asks when the ID is not verified, its name does not match, or the selfie is a copy', () => {
    expect(reasonRule('accept', identity({ verification: { state: 'processing', attempts: [] } }), none).shown).toBe(true);
    expect(reasonRule('accept', identity({ verification: { ...identity({}).verification!, name: { result: 'mismatch', verified: 'A B', applied: 'C D', note: 'the names differ' } } }), none).shown).toBe(true);
    expect(reasonRule('accept', identity({ selfie: { state: 'copy', copyOf: { kind: 'earlier-selfie' } } }), none).shown).toBe(true);
    expect(reasonRule('accept', identity({ faceConsent: 'declined', state: 'manual', selfie: undefined }), none).shown).toBe(true);
  });

  it('does not ask when the ID is verified and the selfie matches, nor for a rejection', () => {
    expect(reasonRule('accept', identity({}), none)).toEqual({ shown: false, missing: false });
    expect(reasonRule('reject', mismatch, none)).toEqual({ shown: false, missing: false });
  });

  it('asks when the server asked, although the page saw no gate', () => {
    expect(reasonRule('accept', identity({}), none, true)).toEqual({ shown: true, missing: true });
  });

  it('sends the trimmed reason and second proof with an accept past a gate, and only then', () => {
    const fields = { note: 'n', messageToApplicant: 'm', identityReason: '  Checked by video call.  ', secondProof: ' Video call on 2 December with Noa ' };
    expect(decisionRequest('accept', fields, true)).toEqual({
      decision: 'accept',
      note: 'n',
      messageToApplicant: 'm',
      identityReason: 'Checked by video call.',
      secondProof: 'Video call on 2 December with Noa',
    });
    expect(decisionRequest('accept', fields, false)).toEqual({ decision: 'accept', note: 'n', messageToApplicant: 'm' });
    expect(decisionRequest('reject', fields, true)).toEqual({ decision: 'reject', note: 'n', messageToApplicant: 'm' });
  });

  it('shows a server refusal naming the reason or the second proof, and leaves other refusals alone', () => {
    expect(identityReasonError({ status: 400, body: { error: 'x', fields: { identityReason: 'identityReason must be at most 2000 characters' } } })).toBe(
      'identityReason must be at most 2000 characters',
    );
    expect(identityReasonError({ status: 400, body: { error: 'x', fields: { secondProof: 'secondProof must be at most 500 characters' } } })).toBe(
      'secondProof must be at most 500 characters',
    );
    expect(identityReasonError({ status: 400, message: IDENTITY_REASON_REQUIRED, body: { error: IDENTITY_REASON_REQUIRED } })).toBe(IDENTITY_REASON_REQUIRED);
    // Both fields named with the same sentence: said once.
    const both = { identityReason: IDENTITY_REASON_REQUIRED, secondProof: IDENTITY_REASON_REQUIRED };
    expect(identityReasonError({ status: 400, body: { error: IDENTITY_REASON_REQUIRED, fields: both } })).toBe(IDENTITY_REASON_REQUIRED);
    expect(identityReasonError({ status: 409, body: { error: 'This application has already been decided.' } })).toBeUndefined();
    expect(identityReasonError({ status: 400, body: { error: 'note must be a string', fields: { note: 'note must be a string' } } })).toBeUndefined();
    expect(identityReasonError({ status: 500, body: { error: IDENTITY_REASON_REQUIRED } })).toBeUndefined();
    expect(identityReasonError(new Error('Failed to fetch'))).toBeUndefined();
  });
});
