// The emails of an exclusive contract (docs/royalties.md#exclusive-contracts): the
// talent is told when a contract starts (which brand, the term, what it means) and when it ends.
import { PRODUCT_NAME } from '../../../events/product';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

export interface ContractNotice {
  /** The talent's name as the catalog shows it. */
  talentName: string;
  brandName: string;
  startsAt: string;
  until: string;
  siteUrl: string;
}

/** A date as people read it, in UTC ("12 March 2027"): the term's dates in every email. */
function termDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

const portalUrl = (siteUrl: string) => `${siteUrl.replace(/\/$/, '')}/talent-portal`;

const paragraphs = (lines: string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');

/** "Your exclusive contract with <brand> has started": sent once, when the term begins. */
export function contractStartedEmail(n: ContractNotice): Email {
  const subject = `Your exclusive contract with ${n.brandName} has started`;
  const term = `from ${termDate(n.startsAt)} until ${termDate(n.until)}`;
  const body = [
    `Hi ${n.talentName},`,
    `${PRODUCT_NAME} has recorded an exclusive contract for your likeness with ${n.brandName}, ${term}.`,
    'While it is in force:',
  ];
  const rules = [
    `only ${n.brandName} can generate images with your likeness;`,
    'your profile is hidden from the public Talent Library;',
    `you cannot request removal of your likeness until ${termDate(n.until)}.`,
  ];
  const after = [
    `Royalties on ${n.brandName}'s images accrue as usual and appear in your monthly statements.`,
    `When the term ends, all of this lifts by itself and we will let you know. Your talent portal shows the contract: ${portalUrl(n.siteUrl)}`,
    `The ${PRODUCT_NAME} team`,
  ];
  const text = [...body, rules.map((r) => `- ${r}`).join('\n'), ...after].join('\n\n');
  const html = frame(subject, `${paragraphs(body)}\n<ul>${rules.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>\n${paragraphs(after)}`);
  return { subject, text, html };
}

/** "Your exclusive contract with <brand> has ended": at the end of the term, or when an admin ends it early. */
export function contractEndedEmail(n: ContractNotice & { endedAt: string; early: boolean }): Email {
  const subject = `Your exclusive contract with ${n.brandName} has ended`;
  const lines = [
    `Hi ${n.talentName},`,
    n.early
      ? `Your exclusive contract with ${n.brandName} was ended on ${termDate(n.endedAt)}, before its term (until ${termDate(n.until)}).`
      : `Your exclusive contract with ${n.brandName} ended on ${termDate(n.endedAt)}.`,
    'Your profile is back in the public Talent Library, every client can generate with your likeness again (within your excluded industries), and you can pause it or request its removal from your talent portal at any time.',
    `Licenses already issued to ${n.brandName} stay valid. Your talent portal: ${portalUrl(n.siteUrl)}`,
    `The ${PRODUCT_NAME} team`,
  ];
  return { subject, text: lines.join('\n\n'), html: frame(subject, paragraphs(lines)) };
}
