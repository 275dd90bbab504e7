import { useConfig } from '../../config';
import { AREA_LINKS, type SiteArea } from '../../lib/siteAreas';
import { LegalDocument } from './LegalDocument';
import { privacyIntro, privacySections, privacySummary, type LegalTextContext } from './privacyPolicy';
import { termsIntro, termsSections, termsSummary } from './termsOfService';

function useLegalContext(area: SiteArea): LegalTextContext {
  const { contactEmail } = useConfig();
  return { contactEmail, links: AREA_LINKS[area] };
}

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
export const PrivacyPage = () => <PrivacyPolicy area="main" />;
export const TermsPage = () => <TermsOfService area="main" />;
export const FoundingTalentPrivacyPage = () => <PrivacyPolicy area="founding" />;
export const FoundingTalentTermsPage = () => <TermsOfService area="founding" />;
export const PreLaunchPrivacyPage = () => <PrivacyPolicy area="prelaunch" />;
export const PreLaunchTermsPage = () => <TermsOfService area="prelaunch" />;
