import { SELFIE_MAX_BYTES as CONTRACT_SELFIE_MAX_BYTES } from '../../../events/identity';
import { identityApi } from '../../../web/src/pages/founding-identity/api';
import {
  CAMERA_CONSTRAINTS,
  CAMERA_PROBLEM_TEXTS,
  SELFIE_MAX_BYTES,
  SELFIE_MAX_SIDE,
  cameraProblemOf,
  fitSize,
  putHeaders,
  sendSelfie,
  type SelfiePhase,
} from '../../../web/src/pages/founding-identity/selfie';
import { API, TOKEN, server, status } from './support';

const domError = (name: string) => Object.assign(new Error(name), { name });

describe('the camera', () => {
  it('asks for the front camera, without sound', () => {
    expect(CAMERA_CONSTRAINTS.audio).toBe(false);
    expect(CAMERA_CONSTRAINTS.video).toMatchObject({ facingMode: 'user' });
  });

  it("reads getUserMedia's refusals as what the applicant can do about them", () => {
    expect(cameraProblemOf(domError('NotAllowedError'))).toBe('refused');
    expect(cameraProblemOf(domError('SecurityError'))).toBe('refused');
    expect(cameraProblemOf(domError('NotFoundError'))).toBe('missing');
    expect(cameraProblemOf(domError('OverconstrainedError'))).toBe('missing');
    expect(cameraProblemOf(domError('NotReadableError'))).toBe('busy');
    expect(cameraProblemOf(domError('AbortError'))).toBe('busy');
    expect(cameraProblemOf(new TypeError('getUserMedia is not a function'))).toBe('unsupported');
    expect(cameraProblemOf(undefined)).toBe('busy');
  });

  it('says how to allow a blocked camera and offers the phone for every problem', () => {
    expect(CAMERA_PROBLEM_TEXTS.refused.text).toMatch(/Allow/);
    expect(CAMERA_PROBLEM_TEXTS.refused.text).toMatch(/Try the camera again/);
    for (const { text } of Object.values(CAMERA_PROBLEM_TEXTS)) expect(text).toMatch(/on your phone/);
  });
});

describe('the picture', () => {
  it('keeps the frame under the longest side allowed, never enlarging it', () => {
    expect(fitSize(1920, 1080)).toEqual({ width: SELFIE_MAX_SIDE, height: 720 });
    expect(fitSize(1080, 1920)).toEqual({ width: 720, height: SELFIE_MAX_SIDE });
    expect(fitSize(640, 480)).toEqual({ width: 640, height: 480 });
    expect(fitSize(4000, 3000, 1000)).toEqual({ width: 1000, height: 750 });
    expect(() => fitSize(0, 0)).toThrow('The camera has not sent a picture yet.');
  });

  it('has the size limit of the contract', () => {
    expect(SELFIE_MAX_BYTES).toBe(CONTRACT_SELFIE_MAX_BYTES);
  });

  it('leaves out the headers a browser refuses to set', () => {
    expect(putHeaders({ 'Content-Type': 'image/jpeg', 'Content-Length': '10', Host: 'x', 'x-amz-meta-app': 'a' })).toEqual({ 'Content-Type': 'image/jpeg', 'x-amz-meta-app': 'a' });
  });
});

describe('sending a selfie', () => {
  const upload = {
    url: 'https://bucket.identity.test/selfies/app-identity-1.jpg?X-Amz-Signature=abc',
    key: 'selfies/app-identity-1.jpg',
    headers: { 'content-type': 'image/jpeg', 'x-amz-server-side-encryption': 'aws:kms' },
    expiresAt: '2026-11-28T10:15:00.000Z',
  };
  const selfie = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], { type: 'image/jpeg' });

  it('gets a presigned URL for its size, PUTs the bytes with the headers named, then has it matched', async () => {
    const matched = status({ faceConsent: 'given', state: 'checked', selfie: { state: 'match', message: 'Your selfie matches your photos.' } });
    const { fetch, calls } = server([{ body: upload }, { status: 200 }, { body: matched }]);
    const phases: SelfiePhase[] = [];
    const answer = await sendSelfie({ api: identityApi({ apiUrl: API, fetch }), token: TOKEN, selfie, fetch, onPhase: (p) => phases.push(p) });
    expect(answer).toEqual(matched);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${API}/founding-identity/selfie-upload`, `PUT ${upload.url}`, `POST ${API}/founding-identity/selfie`]);
    expect(calls[0]!.body).toEqual({ token: TOKEN, contentType: 'image/jpeg', size: selfie.size });
    expect(calls[1]!.headers).toEqual(upload.headers);
    expect(calls[1]!.body).toBe(selfie);
    expect(calls[2]!.body).toEqual({ token: TOKEN, key: upload.key });
    expect(phases).toEqual(['uploading', 'checking']);
  });

  it('stops when the storage refuses the bytes or cannot be reached, and asks to try again', async () => {
    const refused = server([{ body: upload }, { status: 403 }]);
    await expect(sendSelfie({ api: identityApi({ apiUrl: API, fetch: refused.fetch }), token: TOKEN, selfie, fetch: refused.fetch })).rejects.toThrow(
      'Your selfie could not be sent (the storage answered 403). Try again.',
    );
    expect(refused.calls).toHaveLength(2);
    const offline = server([{ body: upload }, new TypeError('Failed to fetch')]);
    await expect(sendSelfie({ api: identityApi({ apiUrl: API, fetch: offline.fetch }), token: TOKEN, selfie, fetch: offline.fetch })).rejects.toThrow(/connection failed/);
  });

  it('passes a refusal of the match on as it came (a retake is an answer, not a failure)', async () => {
    const retake = status({ faceConsent: 'given', selfie: { state: 'no-face', message: 'No face found in your selfie: take it again, facing the camera in good light.' } });
    const { fetch } = server([{ body: upload }, { status: 200 }, { body: retake }]);
    await expect(sendSelfie({ api: identityApi({ apiUrl: API, fetch }), token: TOKEN, selfie, fetch })).resolves.toEqual(retake);
    const gone = server([{ status: 410, body: { error: 'This link has expired.' } }]);
    await expect(sendSelfie({ api: identityApi({ apiUrl: API, fetch: gone.fetch }), token: TOKEN, selfie, fetch: gone.fetch })).rejects.toMatchObject({ status: 410 });
    expect(gone.calls).toHaveLength(1);
  });
});
