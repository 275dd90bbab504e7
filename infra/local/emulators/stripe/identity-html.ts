// The hosted verification page's HTML (identity-page.ts serves it): one form, every field with
// its label and hint, errors announced and tied to their field, one column on a phone. The only
// script (allowed by its nonce) turns the camera on for the selfie; without it, or without a
// camera, the selfie is a photo chosen or taken through the file input.
import { DOCUMENT_TYPES, type DocumentType, TEST_OUTCOMES, type TestOutcome } from './identity-checks';
import { esc, layout } from './pages';

export type PageField = 'document' | 'selfie' | 'document_type' | 'first_name' | 'last_name' | 'dob' | 'outcome';

const STYLE = `<style>
fieldset{border:0;padding:0;margin:24px 0 0;min-width:0}
legend{font-weight:600;font-size:16px;padding:0}
.hint{color:#4f5b6b;font-size:14px;margin:0 0 4px}
input[type=radio]{width:auto;margin:4px 8px 0 0;flex:none}
.choice{display:flex;align-items:flex-start;margin:12px 0 0}
.choice label{margin:0;font-weight:500}
.choice small{display:block;color:#4f5b6b;font-size:14px}
input[type=file]{padding:8px}
.camera video,.camera img{display:block;width:100%;max-width:360px;border-radius:8px;background:#1a1f36;margin-top:12px}
.camera .actions button{width:auto;margin-top:12px;padding:8px 16px}
@media (max-width:479px){.names{grid-template-columns:1fr;gap:0}}
[hidden]{display:none!important}
</style>`;

/** The camera: on when asked, a frame taken into the selfie file input (so the form posts it as any file). */
const CAMERA_SCRIPT = `(() => {
  const input = document.getElementById('selfie');
  const box = document.getElementById('camera');
  if (!input || !box || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || typeof DataTransfer === 'undefined') return;
  const start = document.getElementById('camera-start');
  const shoot = document.getElementById('camera-shoot');
  const video = document.getElementById('camera-video');
  const preview = document.getElementById('camera-preview');
  const status = document.getElementById('camera-status');
  let stream = null;
  box.hidden = false;
  const stop = () => { if (stream) stream.getTracks().forEach((t) => t.stop()); stream = null; video.hidden = true; shoot.hidden = true; };
  start.addEventListener('click', async () => {
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false });
      video.srcObject = stream;
      video.hidden = false;
      shoot.hidden = false;
      shoot.focus();
      status.textContent = 'The camera is on: look at it, then select Take selfie.';
    } catch (err) {
      status.textContent = 'The camera could not start (' + err.name + '): choose a photo of your face instead.';
    }
  });
  shoot.addEventListener('click', () => {
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0);
    canvas.toBlob((blob) => {
      if (!blob) { status.textContent = 'The selfie could not be taken: try again.'; return; }
      const files = new DataTransfer();
      files.items.add(new File([blob], 'selfie.jpg', { type: 'image/jpeg' }));
      input.files = files.files;
      preview.src = URL.createObjectURL(blob);
      preview.hidden = false;
      stop();
      start.textContent = 'Take it again';
      status.textContent = 'Selfie taken. It is sent with the form.';
    }, 'image/jpeg', 0.9);
  });
})();`;

export function identityPage(p: {
  action: string;
  nonce: string;
  selfie: boolean;
  liveCapture: boolean;
  allowed: DocumentType[];
  errors: Partial<Record<PageField, string>>;
  values: Record<string, string>;
}): string {
  const { errors, values } = p;
  const described = (name: PageField, hint?: boolean) => {
    const ids = [hint ? `${name}-hint` : '', errors[name] ? `${name}-error` : ''].filter(Boolean).join(' ');
    return `${errors[name] ? ' aria-invalid="true"' : ''}${ids ? ` aria-describedby="${ids}"` : ''}`;
  };
  const error = (name: PageField) => (errors[name] ? `<p class="error" id="${name}-error" role="alert">${esc(errors[name])}</p>` : '');
  const hint = (name: PageField, text: string) => `<p class="hint" id="${name}-hint">${esc(text)}</p>`;
  const text = (name: PageField, label: string, attrs: string, hintText?: string) =>
    `<label for="${name}">${esc(label)}</label>${hintText ? hint(name, hintText) : ''}<input id="${name}" name="${name}" value="${esc(values[name] ?? '')}" ${attrs}${described(name, Boolean(hintText))}>${error(name)}`;
  const count = Object.keys(errors).length;
  const alert = count ? `<div class="alert" role="alert">${count === 1 ? 'One field needs' : `${count} fields need`} your attention.</div>` : '';
  const chosenType = values.document_type || (p.allowed.length === 1 ? p.allowed[0] : '');
  const outcome = (values.outcome || 'verified') as TestOutcome;
  const outcomes = (Object.keys(TEST_OUTCOMES) as TestOutcome[]).filter((k) => p.selfie || k !== 'selfie_face_mismatch');

  const documentPart = `<fieldset><legend>Your ID</legend>
<label for="document_type">Type of ID</label>
<select id="document_type" name="document_type" required${described('document_type')}>
${p.allowed.length > 1 ? '<option value="">Choose…</option>' : ''}${p.allowed.map((t) => `<option value="${t}"${t === chosenType ? ' selected' : ''}>${esc(DOCUMENT_TYPES[t])}</option>`).join('')}
</select>${error('document_type')}
<label for="document">Photo of the front of your ID</label>${hint('document', p.liveCapture ? 'Take the photo with your camera now (this verification asks for a live capture). JPEG, PNG or WebP, up to 10 MB.' : 'The whole document, flat, in good light. JPEG, PNG or WebP, up to 10 MB.')}
<input type="file" id="document" name="document" accept="image/*"${p.liveCapture ? ' capture="environment"' : ''} required${described('document', true)}>${error('document')}
</fieldset>`;

  const selfiePart = p.selfie
    ? `<fieldset><legend>Your selfie</legend>
<p class="hint" id="selfie-hint">Stripe compares your face with the photo on your ID. Use the camera, or choose a photo of your face taken now.</p>
<div class="camera" id="camera" hidden>
<div class="actions"><button type="button" class="secondary" id="camera-start">Turn on the camera</button><button type="button" class="secondary" id="camera-shoot" hidden>Take selfie</button></div>
<video id="camera-video" autoplay playsinline muted hidden aria-label="Camera preview"></video>
<img id="camera-preview" alt="Your selfie" hidden>
<p class="hint" id="camera-status" role="status" aria-live="polite"></p>
</div>
<label for="selfie">Selfie photo</label>
<input type="file" id="selfie" name="selfie" accept="image/*" capture="user" required${described('selfie', true)}>${error('selfie')}
</fieldset>`
    : '';

  const namePart = `<fieldset><legend>As written on your ID</legend>
<div class="row names"><div>${text('first_name', 'First and middle names', 'autocomplete="given-name" required')}</div>
<div>${text('last_name', 'Last name', 'autocomplete="family-name" required')}</div></div>
${text('dob', 'Date of birth', 'type="date" autocomplete="bday"', 'Not needed for the Under 18 outcome.')}
</fieldset>`;

  const outcomePart = `<fieldset aria-describedby="outcome-hint${errors.outcome ? ' outcome-error' : ''}"><legend>Test outcome</legend>
${hint('outcome', 'Nothing is checked here: pick what Stripe would find.')}
${outcomes
  .map(
    (k) =>
      `<div class="choice"><input type="radio" id="outcome-${k}" name="outcome" value="${k}" aria-describedby="outcome-${k}-hint"${k === outcome ? ' checked' : ''}><div><label for="outcome-${k}">${esc(TEST_OUTCOMES[k].label)}</label><small id="outcome-${k}-hint">${esc(TEST_OUTCOMES[k].hint)}</small></div></div>`,
  )
  .join('')}
${error('outcome')}</fieldset>`;

  const body = `${STYLE}<section><p class="brand">Humanly <span class="muted">TEST MODE</span></p>
<h1>Verify your identity</h1>
<p class="muted">Humanly partners with Stripe to verify that you are who you say you are${p.selfie ? ', with a photo of your ID and a selfie' : ', with a photo of your ID'}.</p></section>
<section class="card" aria-labelledby="verify-title"><h2 id="verify-title">Your details</h2>${alert}
<form method="post" action="${esc(p.action)}" enctype="multipart/form-data" novalidate>
${documentPart}${selfiePart}${namePart}${outcomePart}
<button type="submit">Submit</button>
</form></section>
<script nonce="${esc(p.nonce)}">${CAMERA_SCRIPT}</script>`;
  return layout('Verify your identity', body, false, 'Identity: no document or face is checked; you pick the outcome', 'local Stripe emulator');
}
