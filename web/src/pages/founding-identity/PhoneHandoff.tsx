import { useEffect, useMemo, useRef, useState } from 'react';
import { identityLink } from './flow';
import { qrPath } from './qr';

/**
 * "Continue on your phone": a QR code of this flow's link and the link to copy. The phone opens
 * /founding/identity with the token in the fragment and resumes where the applicant is.
 */
export function PhoneHandoff({
  token,
  onCheckAgain,
  checking,
  note,
  focusOnOpen = false,
}: {
  token: string;
  onCheckAgain: () => void;
  checking: boolean;
  /** Said after "I finished on my phone" when nothing came from the phone. */
  note?: string;
  /** Opened by the applicant's click: the title takes the focus (the button they pressed is gone). */
  focusOnOpen?: boolean;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnOpen) title.current?.focus();
  }, [focusOnOpen]);
  const link = identityLink(window.location.origin, token);
  const qr = useMemo(() => qrPath(link), [link]);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }

  return (
    <section className="idv-handoff" aria-labelledby="idv-handoff-title" data-testid="phone-handoff">
      <h3 ref={title} id="idv-handoff-title" className="idv-handoff__title" tabIndex={-1}>
        Continue on your phone
      </h3>
      <div className="idv-handoff__body">
        <svg
          className="idv-handoff__qr"
          viewBox={`0 0 ${qr.side} ${qr.side}`}
          role="img"
          aria-label="QR code of the link to continue on your phone"
          shapeRendering="crispEdges"
          data-testid="handoff-qr"
          data-link={link}
        >
          <rect width={qr.side} height={qr.side} fill="#fff" />
          <path d={qr.path} fill="#000" />
        </svg>
        <div className="idv-handoff__text">
          <p>Point your phone’s camera at the code and open the link it shows: this page opens on your phone, at the same step.</p>
          <label htmlFor="idv-handoff-link" className="field__label">
            Or send yourself the link
          </label>
          <div className="idv-copy">
            <input id="idv-handoff-link" className="input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-testid="handoff-link" />
            <button type="button" className="button button--secondary" onClick={copy}>
              Copy link
            </button>
          </div>
          <p className="idv-hint" role="status">
            {copied === 'yes' ? 'Link copied.' : copied === 'no' ? 'Your browser did not let us copy: select the link and copy it yourself.' : ''}
          </p>
          <p className="idv-hint">Keep this link to yourself: it opens your application.</p>
          <button type="button" className="button button--ghost" onClick={onCheckAgain} disabled={checking} data-testid="handoff-check">
            {checking ? 'Checking…' : 'I finished on my phone'}
          </button>
          <p className="idv-hint" role="status" data-testid="handoff-note">
            {note}
          </p>
        </div>
      </div>
    </section>
  );
}
