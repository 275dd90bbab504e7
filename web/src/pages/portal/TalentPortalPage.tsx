import { usePageTitle } from '../../lib/usePageTitle';

/** /talent-portal: a talent's application, likeness and royalties (docs/product.md#talent-portal). */
export function TalentPortalPage() {
  usePageTitle('Talent Portal');
  return (
    <div className="container" data-testid="talent-portal-page">
      <h1>Talent Portal</h1>
    </div>
  );
}
