import { PROMPT_MAX_LENGTH } from '../../../events/generation-values';
import { clearDraft, loadDraft, saveDraft } from '../../../web/src/generation/draft';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    items,
  };
}

describe('the create page draft kept across sign-in', () => {
  it('keeps what was typed and gives it back; clearing or an empty prompt drops it', () => {
    const store = memoryStorage();
    saveDraft({ talentId: 'maya-chen', prompt: 'a portrait by the sea', style: 'Editorial', count: 2 }, store);
    expect(loadDraft(store)).toEqual({ talentId: 'maya-chen', prompt: 'a portrait by the sea', style: 'Editorial', count: 2 });
    saveDraft({ talentId: 'maya-chen', prompt: '   ', style: 'Editorial', count: 2 }, store);
    expect(loadDraft(store)).toBeUndefined();
    saveDraft({ talentId: 'maya-chen', prompt: 'again', style: 'Editorial', count: 2 }, store);
    clearDraft(store);
    expect(store.items.size).toBe(0);
  });

  it('puts right what no longer fits the form (a tampered or older draft)', () => {
    const store = memoryStorage();
    store.setItem('humanly.create-draft', JSON.stringify({ talentId: 7, prompt: 'x'.repeat(PROMPT_MAX_LENGTH + 5), style: 'Cinematic', count: 9 }));
    expect(loadDraft(store)).toEqual({ talentId: '', prompt: 'x'.repeat(PROMPT_MAX_LENGTH), style: 'Photorealistic', count: 4 });
    store.setItem('humanly.create-draft', '{not json');
    expect(loadDraft(store)).toBeUndefined();
  });
});
