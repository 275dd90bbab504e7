import { LegalDocument, useLegalContext } from './LegalDocument';
import { termsIntro, termsSections, termsSummary } from './termsOfService';
import type { SiteArea } from '../../lib/siteAreas';

/*
 * The Terms of Service of each layout. A chunk of its own, apart from the Privacy Policy
 * (./PrivacyPages.tsx): a legal page loads only its own text (decision 063).
 */
function TermsOfService({ area }: { area: SiteArea }) {
  const ctx = useLegalContext(area);
  return (
    <LegalDocument
      area={area}
      title="Terms of Service"
      intro={termsIntro(ctx)}
      summary={termsSummary()}
      sections={termsSections(ctx)}
      related={{ to: ctx.links.privacy, label: 'Privacy Policy' }}
      testId="terms-page"
    />
  );
}

/* One component per route, so the route modules stay declarative. */
export const TermsPage = () => <TermsOfService area="main" />;
export const FoundingTalentTermsPage = () => <TermsOfService area="founding" />;
export const PreLaunchTermsPage = () => <TermsOfService area="prelaunch" />;
