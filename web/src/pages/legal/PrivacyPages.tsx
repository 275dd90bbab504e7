import { LegalDocument, useLegalContext } from './LegalDocument';
import { privacyIntro, privacySections, privacySummary } from './privacyPolicy';
import type { SiteArea } from '../../lib/siteAreas';

/*
 * The Privacy Policy of each layout. A chunk of its own, apart from the Terms of Service
 * (./TermsPages.tsx): a legal page loads only its own text (decision 063).
 */
function PrivacyPolicy({ area }: { area: SiteArea }) {
  const ctx = useLegalContext(area);
  return (
    <LegalDocument
      area={area}
      title="Privacy Policy"
      intro={privacyIntro(ctx)}
      summary={privacySummary(ctx)}
      sections={privacySections(ctx)}
      related={{ to: ctx.links.terms, label: 'Terms of Service' }}
      testId="privacy-page"
    />
  );
}

/* One component per route, so the route modules stay declarative. */
export const PrivacyPage = () => <PrivacyPolicy area="main" />;
export const FoundingTalentPrivacyPage = () => <PrivacyPolicy area="founding" />;
export const PreLaunchPrivacyPage = () => <PrivacyPolicy area="prelaunch" />;
