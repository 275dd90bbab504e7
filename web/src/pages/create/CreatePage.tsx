import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_IMAGES, DEFAULT_STYLE, type Style } from '../../../../events/generation-values';
import { safeNextPath } from '../../auth/next-path';
import { useAuth } from '../../auth/useAuth';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { generationApi } from '../../generation/api';
import { loadDraft, saveDraft } from '../../generation/draft';
import { usePageTitle } from '../../lib/usePageTitle';
import { AccountNotice } from './AccountNotice';
import { PromptFields } from './PromptFields';
import { Results } from './Results';
import { TalentPicker, useTalentChoices } from './TalentPicker';
import { useGenerationRun } from './useGenerationRun';
import '../../components/FormField.css';
import './CreatePage.css';

/**
 * The form's values, restored from a draft kept before signing in and kept again as they change;
 * ?talent= wins over the draft's talent, and a new ?talent= (a link followed while on the page)
 * chooses that talent.
 */
function useCreateDraft() {
  const [params] = useSearchParams();
  const [initial] = useState(() => loadDraft());
  const queryTalent = params.get('talent')?.trim() ?? '';
  const [talentId, setTalentId] = useState(queryTalent || initial?.talentId || '');
  const [prompt, setPrompt] = useState(initial?.prompt ?? '');
  const [style, setStyle] = useState<Style>(initial?.style ?? DEFAULT_STYLE);
  const [count, setCount] = useState(initial?.count ?? DEFAULT_IMAGES);
  const [seenQuery, setSeenQuery] = useState(queryTalent);
  if (queryTalent !== seenQuery) {
    setSeenQuery(queryTalent);
    if (queryTalent) setTalentId(queryTalent);
  }
  useEffect(() => saveDraft({ talentId, prompt, style, count }), [talentId, prompt, style, count]);
  return { talentId, setTalentId, prompt, setPrompt, style, setStyle, count, setCount };
}

/**
 * /create (docs/product.md#create): choose a talent, write a prompt, pick a style and how many
 * images; a client's Generate starts a generation (`POST /generations`) and follows it every 5 s
 * until its images are in, each with a download and its license. Signed out, the page explains
 * and keeps what was typed for after sign-in; a talent account is told generating is for clients.
 * Its parts: the account notice, the talent picker (./TalentPicker.tsx), the prompt's fields
 * (./PromptFields.tsx), the run (./useGenerationRun.ts) and its results (./Results.tsx).
 */
export function CreatePage() {
  usePageTitle('Create Ethical Content');
  const auth = useAuth();
  const { apiUrl } = useConfig();
  const id = useId();
  const api = useMemo(() => generationApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const draft = useCreateDraft();
  const client = auth.me?.role === 'client';
  const talent = useTalentChoices({ apiUrl, api, signedInClient: client, talentId: draft.talentId });
  // The balance after each run (credits spent, or returned after a failure).
  const run = useGenerationRun(api, () => void auth.refresh());

  const balance = auth.me?.credits?.balance ?? 0;
  const short = client && balance < draft.count;
  const { chosen } = talent;
  const canGenerate = client && Boolean(chosen) && draft.prompt.trim().length > 0 && !run.running && !short;
  const nextPath = safeNextPath(`/create${draft.talentId ? `?talent=${encodeURIComponent(draft.talentId)}` : ''}`);

  const generate = (event: FormEvent) => {
    event.preventDefault();
    if (!canGenerate || !chosen) return;
    void run.generate({ talentId: chosen.id, prompt: draft.prompt.trim(), style: draft.style, count: draft.count });
  };

  return (
    <div className="create" data-testid="create-page">
      <section className="page-hero create-hero" aria-labelledby="create-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Create</p>
          <h1 id="create-title">Create Ethical Content</h1>
          <p className="lead">Commercially licensed AI images of real people who said yes, with a royalty paid to them for every image.</p>
        </div>
      </section>

      <div className="container create__body">
        <AccountNotice auth={auth} nextPath={nextPath} />

        <form className="card create-form" onSubmit={generate} noValidate aria-labelledby={`${id}-form-title`} data-testid="create-form">
          <h2 id={`${id}-form-title`} className="sr-only">
            Image generation
          </h2>
          <TalentPicker id={id} talentId={draft.talentId} onChange={draft.setTalentId} disabled={run.running} talent={talent} />
          <PromptFields
            id={id}
            prompt={draft.prompt}
            onPrompt={draft.setPrompt}
            style={draft.style}
            onStyle={draft.setStyle}
            count={draft.count}
            onCount={draft.setCount}
            disabled={run.running}
            balance={client ? balance : undefined}
          />
          <div className="create-form__actions">
            <button type="submit" className="button button--primary create-generate" disabled={!canGenerate} data-testid="generate">
              <Icon name="sparkles" size={20} /> {run.running ? 'Generating...' : 'Generate Images'}
            </button>
          </div>
        </form>

        <Results id={id} run={run} talentName={chosen?.name ?? ''} api={api} />
      </div>
    </div>
  );
}
