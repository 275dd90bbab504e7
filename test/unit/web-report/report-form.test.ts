// The report form's checks in the browser and the server's 400 in the form's words
// (web/src/pages/report/report-checks.ts), and the reports' client turning a 400 with fields into
// ReportFieldsError (web/src/lib/report-api.ts).
import { ReportRequest } from '../../../events/reports';
import { REPORT_LOCATION_MESSAGE, URL_NOT_PUBLIC_MESSAGE } from '../../../events/report-values';
import { reportApi } from '../../../web/src/lib/report-api';
import { reportRequest, serverErrors, validateReport } from '../../../web/src/pages/report/report-checks';
import { EMPTY_DRAFT, type ReportDraft } from '../../../web/src/pages/report/report-draft';

const filled: ReportDraft = {
  ...EMPTY_DRAFT,
  category: 'outside-license',
  urls: ['', ' https://ads.example/spring '],
  explanation: ' Used in a paid campaign. ',
  reporterRole: 'someone-else',
  name: 'Robin Reporter',
  email: 'robin@example.com',
  goodFaith: true,
  signature: 'Robin Reporter',
};

describe('validateReport', () => {
  it('names every missing field of an empty form, the location on the first address', () => {
    expect(Object.keys(validateReport(EMPTY_DRAFT)).sort()).toEqual(['category', 'email', 'explanation', 'goodFaith', 'name', 'reporterRole', 'signature', 'url-0'].sort());
    expect(validateReport(EMPTY_DRAFT)['url-0']).toBe(REPORT_LOCATION_MESSAGE);
  });

  it('asks an intimate-image report for the consent statement, and who is shown when someone else reports', () => {
    const errors = validateReport({ ...filled, category: 'intimate' });
    expect(Object.keys(errors).sort()).toEqual(['consentDenied', 'depictedPerson']);
    expect(validateReport({ ...filled, category: 'intimate', reporterRole: 'talent', consentDenied: true })).toEqual({});
  });

  it('refuses an address that is not http(s) on its own row, and waits for files still sending', () => {
    const sending = { key: 1, name: 'a.jpg', preview: 'blob:x', state: 'sending' as const };
    const errors = validateReport({ ...filled, urls: ['javascript:alert(1)', 'not a url'], files: [sending] });
    expect(errors['url-0']).toContain(URL_NOT_PUBLIC_MESSAGE);
    expect(errors['url-1']).toMatch(/full address/);
    expect(errors.files).toMatch(/Wait until every file is sent/);
  });

  it('makes a request the API accepts from a filled draft', () => {
    expect(validateReport(filled)).toEqual({});
    const request = reportRequest(filled);
    expect(request).toMatchObject({ urls: ['https://ads.example/spring'], fileIds: [], explanation: 'Used in a paid campaign.' });
    expect(ReportRequest.safeParse(request).success).toBe(true);
  });
});

describe('serverErrors', () => {
  it('puts the nth URL sent on the nth filled row, in the form’s words', () => {
    const draft = { ...filled, urls: ['', 'https://a.example/x', '', 'http://10.0.0.7/y'] };
    const errors = serverErrors({ 'urls.1': `url ${URL_NOT_PUBLIC_MESSAGE}`, email: 'email must be a valid email address', consentDenied: 'consentDenied must be true' }, draft);
    expect(errors).toEqual({
      'url-3': `This address ${URL_NOT_PUBLIC_MESSAGE}.`,
      email: expect.stringMatching(/valid email address/),
      consentDenied: expect.stringMatching(/did not consent/),
    });
  });
});

describe('reportApi', () => {
  it('turns a 400 naming fields into ReportFieldsError, and sends the idempotency key', async () => {
    const calls: RequestInit[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      calls.push(init);
      return new Response(JSON.stringify({ error: 'url is not public', fields: { 'urls.0': `url ${URL_NOT_PUBLIC_MESSAGE}` } }), { status: 400 });
    }) as typeof globalThis.fetch;
    const refused = await reportApi({ apiUrl: 'https://api.example.test', fetch })
      .send(reportRequest(filled), 'key-1')
      .catch((err: unknown) => err);
    expect(refused).toMatchObject({ name: 'ReportFieldsError', status: 400, fields: { 'urls.0': `url ${URL_NOT_PUBLIC_MESSAGE}` } });
    expect((calls[0].headers as Record<string, string>)['idempotency-key']).toBe('key-1');
  });
});
