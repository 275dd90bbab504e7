// The create page's starts (web/src/pages/create): a start that got no answer is sent again with
// its key, so a lost answer never makes a second generation; a refusal's words reach the page,
// the daily limit of model failures with its "until when" included (decision 038).
import { modelFailuresMessage } from '../../../events/generation-values';
import { ApiError } from '../../../web/src/api/client';
import { generationApi } from '../../../web/src/generation/api';
import { startAttempt, startWasAnswered } from '../../../web/src/generation/format';

const request = { talentId: 'maya-chen', prompt: 'a potter at her wheel', style: 'Portrait' as const, count: 2 };

describe('a start and its key', () => {
  it('the same request after no answer keeps its key; another request, or one after an answer, gets a fresh one', () => {
    let n = 0;
    const fresh = () => `key-${++n}`;
    const first = startAttempt(undefined, request, fresh);
    expect(first.key).toBe('key-1');
    // No answer (network failure, 5xx): generating the same again is the same start.
    expect(startAttempt(first, { ...request }, fresh)).toEqual(first);
    // A changed prompt is another generation.
    expect(startAttempt(first, { ...request, prompt: 'another' }, fresh).key).toBe('key-2');
    // Which failures were answers: a refusal was; no answer or a server error may have made it.
    expect([0, 500, 502, 503].map(startWasAnswered)).toEqual([false, false, false, false]);
    expect([400, 403, 404, 409, 422, 429].map(startWasAnswered)).toEqual([true, true, true, true, true, true]);
  });

  it("a start refused for the day's model failures shows the server's words, with until when", async () => {
    const message = modelFailuresMessage(20, new Date('2026-03-02T00:00:00Z'));
    const fetch = (async () => new Response(JSON.stringify({ error: message }), { status: 429, headers: { 'content-type': 'application/json' } })) as unknown as typeof globalThis.fetch;
    const api = generationApi({ apiUrl: 'https://api.example.test', getIdToken: async () => 'id-token', fetch });
    const refusal = await api.start(request, 'key-1').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 429, message });
    expect((refusal as Error).message).toContain('00:00 UTC on 2026-03-02');
  });
});
