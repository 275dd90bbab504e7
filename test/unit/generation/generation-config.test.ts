// The console's generation config of a talent: read (404 for an unknown talent or none set) and
// set by hand, refused for a talent whose model is trained from their own photos.
import { TALENT_NOT_FOUND_MESSAGE } from '../../../events/talent-values';
import { getGenerationConfig, NO_GENERATION_CONFIG_MESSAGE } from '../../../functions/generation/routes/get-generation-config/service';
import { setGenerationConfig, TRAINED_TALENT_CONFIG_MESSAGE } from '../../../functions/generation/routes/set-generation-config/service';
import type { TalentStore } from '../../../functions/catalog';

const CONFIG = { model: 'owner/model', triggerWord: 'TOK' };

describe('generation config (console)', () => {
  it('answers a talent\'s config, 404 for an unknown talent, a malformed id or none set', async () => {
    const found = { talent: {}, controls: { generation: CONFIG } } as Awaited<ReturnType<TalentStore['getForGeneration']>>;
    const store = { getForGeneration: async (id: string) => (id === 'maya-chen' ? found : id === 'new-face' ? { ...found!, controls: {} } : undefined) };
    await expect(getGenerationConfig(store, 'maya-chen')).resolves.toEqual(CONFIG);
    await expect(getGenerationConfig(store, 'nobody')).rejects.toMatchObject({ status: 404, message: TALENT_NOT_FOUND_MESSAGE });
    await expect(getGenerationConfig(store, '../x')).rejects.toMatchObject({ status: 404, message: TALENT_NOT_FOUND_MESSAGE });
    await expect(getGenerationConfig(store, 'new-face')).rejects.toMatchObject({ status: 404, message: NO_GENERATION_CONFIG_MESSAGE });
  });

  it('sets a seeded talent\'s config, refuses a trained talent\'s (409) and an unknown one (404)', async () => {
    const outcomes: Record<string, 'set' | 'not-found' | 'trained'> = { 'maya-chen': 'set', 'ana-lima': 'trained' };
    const store = { setHandTypedGenerationConfig: async (id: string) => outcomes[id] ?? ('not-found' as const) };
    await expect(setGenerationConfig(store, 'maya-chen', CONFIG, 'admin-1')).resolves.toEqual(CONFIG);
    await expect(setGenerationConfig(store, 'ana-lima', CONFIG, 'admin-1')).rejects.toMatchObject({ status: 409, message: TRAINED_TALENT_CONFIG_MESSAGE });
    await expect(setGenerationConfig(store, 'nobody', CONFIG, 'admin-1')).rejects.toMatchObject({ status: 404, message: TALENT_NOT_FOUND_MESSAGE });
  });
});
