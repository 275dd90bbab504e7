import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { fetchTalentList, type PublicTalent } from '../../api/talent';
import type { GenerationApi } from '../../generation/api';

/** No exclusive talent (a stable value for memos). */
const NONE: PublicTalent[] = [];

export interface TalentChoices {
  /** The public talent and a brand's exclusive ones; null until the public list is in. */
  choices: PublicTalent[] | null;
  /** The chosen talent, once the lists know it. */
  chosen?: PublicTalent;
  /** A talent asked for (?talent=, a draft) that neither list holds. */
  unknown: boolean;
  /** The public list could not be read. */
  failed: boolean;
  retry(): void;
}

/**
 * The talent /create offers (docs/product.md#create): `GET /talent`, and for a signed-in client
 * the brand's exclusive talent too (`GET /me/exclusive-talent`, hidden from the public list,
 * docs/royalties.md#exclusive-contracts). The exclusive list is null while it loads, so a
 * ?talent= of theirs is not called unknown meanwhile; if it fails, the public talent still work.
 */
export function useTalentChoices(options: { apiUrl: string; api: GenerationApi; signedInClient: boolean; talentId: string }): TalentChoices {
  const { apiUrl, api, signedInClient, talentId } = options;
  const talent = useQuery({ queryKey: ['talent-list', apiUrl], queryFn: ({ signal }) => fetchTalentList(apiUrl, signal) });
  const brand = useQuery({ queryKey: ['exclusive-talent'], queryFn: () => api.exclusiveTalent(), enabled: signedInClient });
  const exclusive = !signedInClient ? NONE : brand.isError ? NONE : (brand.data ?? null);
  const publicList = talent.data;
  const choices = useMemo(
    () => (publicList ? [...publicList, ...(exclusive ?? NONE).filter((e) => !publicList.some((t) => t.id === e.id))] : null),
    [publicList, exclusive],
  );
  const chosen = choices?.find((t) => t.id === talentId);
  return {
    choices,
    chosen,
    unknown: Boolean(choices && exclusive && talentId && !chosen),
    failed: talent.isError && !talent.isFetching,
    retry: () => {
      void talent.refetch();
      if (signedInClient) void brand.refetch();
    },
  };
}

/** The Model field: the talent to generate with, why a choice is missing, and the chosen talent's picture. */
export function TalentPicker(props: { id: string; talentId: string; onChange: (talentId: string) => void; disabled: boolean; talent: TalentChoices }) {
  const { id, talentId, onChange, disabled, talent } = props;
  const { choices, chosen } = talent;
  return (
    <div className="create-form__row">
      <div className="field create-form__model">
        <label className="field__label" htmlFor={`${id}-model`}>
          Model
        </label>
        <select
          id={`${id}-model`}
          className="select"
          value={chosen ? talentId : ''}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled || !choices}
          aria-describedby={`${id}-model-hint`}
          data-testid="model-select"
        >
          <option value="">{choices ? 'Choose a talent' : 'Loading talent…'}</option>
          {choices?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        <p id={`${id}-model-hint`} className="field__hint">
          {talent.failed ? (
            <span role="alert">
              The talent could not be loaded. Check your connection and try again.{' '}
              <button type="button" className="create-link-button" onClick={talent.retry}>
                Try again
              </button>
            </span>
          ) : talent.unknown ? (
            'That talent is not available for generation. Choose another one.'
          ) : (
            <>
              Real people who license their likeness. <Link to="/talent">Browse the Talent Library</Link>
            </>
          )}
        </p>
      </div>
      {chosen && (
        <div className="create-talent" data-testid="create-selected-talent" data-talent-id={chosen.id}>
          <img src={chosen.image} alt="" width={56} height={70} className="create-talent__image" />
          <div className="create-talent__text">
            <p className="create-talent__label">Selected talent</p>
            <p className="create-talent__name">{chosen.name}</p>
          </div>
        </div>
      )}
    </div>
  );
}
