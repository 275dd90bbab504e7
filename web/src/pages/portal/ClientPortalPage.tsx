import { usePageTitle } from '../../lib/usePageTitle';

/** /client-portal: a client's account, plan, credits and ledger (docs/product.md#client-portal). */
export function ClientPortalPage() {
  usePageTitle('Client Portal');
  return (
    <div className="container" data-testid="client-portal-page">
      <h1>Client Portal</h1>
    </div>
  );
}
