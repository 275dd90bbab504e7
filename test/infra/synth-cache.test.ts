import { synthTemplate } from '../../infra/local/template';

// Twins share one synthesis whatever their ports: the cache synthesizes with stand-ins for the
// context's loopback ports and puts the real ones back (infra/local/synth-cache.ts). A port that
// happens to equal a stand-in (65102) must come back as itself.
it("gives a twin's context the template a synthesis with its real ports gives", () => {
  const context = { stage: 'local', siteUrl: 'http://127.0.0.1:65102', siteOrigins: ['http://127.0.0.1:65102', 'http://127.0.0.1:4001'], removalNoticeSeconds: 5 };
  const cached = synthTemplate(context);
  process.env.TWIN_CACHE = 'off';
  try {
    expect(cached).toEqual(synthTemplate(context));
  } finally {
    delete process.env.TWIN_CACHE;
  }
  expect(JSON.stringify(cached)).not.toContain('65101');
});
