import { useEffect, useRef, useState } from 'react';
import { Icon, LinkedInLogo, XLogo } from '../../components/Icon';
import { useToast } from '../../components/Toast';

/** How long the Copy Link button shows its copied state. */
const COPIED_RESET_MS = 2000;

export interface ShareContent {
  url: string;
  text: string;
  emailSubject: string;
}

function shareLinks({ url, text, emailSubject }: ShareContent) {
  const e = encodeURIComponent;
  return {
    twitter: `https://twitter.com/intent/tweet?text=${e(text)}&url=${e(url)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${e(url)}`,
    email: `mailto:?subject=${e(emailSubject)}&body=${e(`${text}\n\n${url}`)}`,
  };
}

/** Clipboard API first; the textarea fallback covers non-secure origins (plain http on a LAN). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

export function SharePanel({ content, title, intro }: { content: ShareContent; title: string; intro: string }) {
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  const resetTimer = useRef<number | undefined>(undefined);
  const links = shareLinks(content);

  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  async function handleCopy() {
    try {
      await copyText(content.url);
      setCopied(true);
      toast({ title: 'Copied!', description: 'The link is on your clipboard.', variant: 'success' });
      window.clearTimeout(resetTimer.current);
      resetTimer.current = window.setTimeout(() => setCopied(false), COPIED_RESET_MS);
    } catch {
      toast({ title: 'Could not copy the link', description: content.url, variant: 'error' });
    }
  }

  return (
    <section className="card share" aria-labelledby="share-title" data-testid="share-panel">
      <h2 id="share-title" className="share__title">
        {title}
      </h2>
      <p className="share__intro">{intro}</p>
      <div className="share__buttons">
        <a className="button button--secondary share__button" href={links.twitter} target="_blank" rel="noopener noreferrer" data-testid="share-twitter">
          <XLogo /> Share on X<span className="sr-only"> (opens in a new tab)</span>
        </a>
        <a className="button button--secondary share__button" href={links.linkedin} target="_blank" rel="noopener noreferrer" data-testid="share-linkedin">
          <LinkedInLogo /> Share on LinkedIn<span className="sr-only"> (opens in a new tab)</span>
        </a>
        <a className="button button--secondary share__button" href={links.email} data-testid="share-email">
          <Icon name="mail" size={18} /> Share by email
        </a>
        <button type="button" className="button button--secondary share__button" onClick={handleCopy} data-testid="copy-link" data-copied={copied}>
          <Icon name={copied ? 'check' : 'link'} size={18} />
          {copied ? 'Link copied' : 'Copy Link'}
        </button>
      </div>
      <p className="share__url">
        <span className="sr-only">Link to share: </span>
        <code>{content.url}</code>
      </p>
    </section>
  );
}
