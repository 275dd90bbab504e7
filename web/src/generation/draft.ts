// What a signed-out visitor typed on /create, kept for this tab (sessionStorage) so it is still
// there after signing in (docs/product.md#create). Only this tab sees it, and it is dropped once
// a generation starts.
import { DEFAULT_IMAGES, MAX_IMAGES, MIN_IMAGES, PROMPT_MAX_LENGTH, STYLES, type Style } from '../../../events/generation-values';

export interface CreateDraft {
  talentId: string;
  prompt: string;
  style: Style;
  count: number;
}

const KEY = 'humanly.create-draft';

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): DraftStorage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage blocked: the draft is simply not kept
  }
}

/** Keeps the draft (an empty prompt removes it). */
export function saveDraft(draft: CreateDraft, store: DraftStorage | undefined = storage()): void {
  try {
    if (!draft.prompt.trim()) store?.removeItem(KEY);
    else store?.setItem(KEY, JSON.stringify({ ...draft, prompt: draft.prompt.slice(0, PROMPT_MAX_LENGTH) }));
  } catch {
    // full or blocked: nothing to keep it in
  }
}

/** The kept draft, with anything that no longer fits the form put right; undefined when none. */
export function loadDraft(store: DraftStorage | undefined = storage()): CreateDraft | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(store?.getItem(KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const prompt = typeof r.prompt === 'string' ? r.prompt.slice(0, PROMPT_MAX_LENGTH) : '';
  if (!prompt.trim()) return undefined;
  const count = typeof r.count === 'number' && Number.isInteger(r.count) && r.count >= MIN_IMAGES && r.count <= MAX_IMAGES ? r.count : DEFAULT_IMAGES;
  const style = STYLES.find((s) => s === r.style) ?? STYLES[0];
  return { talentId: typeof r.talentId === 'string' ? r.talentId : '', prompt, style, count };
}

export function clearDraft(store: DraftStorage | undefined = storage()): void {
  try {
    store?.removeItem(KEY);
  } catch {
    // blocked: nothing was kept
  }
}
