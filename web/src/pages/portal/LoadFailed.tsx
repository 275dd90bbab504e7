/** A portal card whose data could not be loaded: what went wrong, and a way to load it again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <>
      <p className="acct-error" role="alert">
        {message}
      </p>
      <div className="acct-actions">
        <button type="button" className="button button--ghost" onClick={onRetry}>
          Try again
        </button>
      </div>
    </>
  );
}
