import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FULL_NAME_MAX_LENGTH } from '../../../../events/account-values';
import type { Profile, UpdateMeRequest } from '../../../../events/accounts';
import { Icon } from '../../components/Icon';
import { formatDate, fullNameProblem } from '../../account/format';

interface Props {
  profile: Profile;
  updateProfile: (changes: UpdateMeRequest) => Promise<Profile>;
}

/** Full name (edited in place) and email, on both portals. */
export function ProfileCard({ profile, updateProfile }: Props) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(profile.full_name);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (editing) input.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  const startEditing = () => {
    setName(profile.full_name);
    setError(undefined);
    setSaved('');
    setEditing(true);
  };
  const stopEditing = () => {
    returnFocus.current = true;
    setEditing(false);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const problem = fullNameProblem(name);
    if (problem) {
      setError(problem);
      input.current?.focus();
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const updated = await updateProfile({ full_name: name.trim() });
      setSaved(`Name saved: ${updated.full_name}.`);
      stopEditing();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your name could not be saved. Try again.');
      input.current?.focus();
    } finally {
      setSaving(false);
    }
  };

  const errorId = `${id}-error`;
  return (
    <section className="card acct-card" aria-labelledby={`${id}-title`} data-testid="profile-card">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="users" size={20} /> Profile
      </h2>
      {editing ? (
        <form className="acct-name-form" onSubmit={(e) => void save(e)} noValidate>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-name`}>
              Full name
            </label>
            <input
              ref={input}
              id={`${id}-name`}
              className="input"
              name="full_name"
              autoComplete="name"
              value={name}
              maxLength={FULL_NAME_MAX_LENGTH + 20}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') stopEditing();
              }}
            />
          </div>
          <div className="acct-actions">
            <button type="submit" className="button button--primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save name'}
            </button>
            <button type="button" className="button button--ghost" onClick={stopEditing} disabled={saving}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <dl className="acct-facts">
          <div>
            <dt>Full name</dt>
            <dd className="acct-facts__row">
              <span data-testid="profile-name">{profile.full_name}</span>
              <button ref={editButton} type="button" className="acct-link-button" onClick={startEditing}>
                <Icon name="pencil" size={16} /> Edit<span className="sr-only"> full name</span>
              </button>
            </dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd data-testid="profile-email" className="acct-facts__email">
              {profile.email}
            </dd>
          </div>
          <div>
            <dt>Member since</dt>
            <dd>{formatDate(profile.createdAt)}</dd>
          </div>
        </dl>
      )}
      <p id={errorId} className="acct-error" role="alert">
        {error}
      </p>
      <p className="acct-saved" role="status">
        {saved}
      </p>
    </section>
  );
}
