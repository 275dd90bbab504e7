// The site's calls to the payments routes (docs/product.md#client-portal, #pricing): start a
// Checkout for a plan or credit packs, follow the checkout the portal came back from, open the
// billing portal and read the client's billing. Every answer is checked against the shared
// contract (events/payments.ts); the schemas load with import() on the first call.
import type { BillingResponse, CheckoutStatus, CreateCheckoutRequest, RedirectResponse } from '../../../events/payments';
import { apiClient, type ApiOptions } from '../api/client';

export type PaymentsApiOptions = ApiOptions & { getIdToken: () => Promise<string | undefined> };

export interface PaymentsApi {
  /** `POST /me/checkout-sessions`: Stripe's hosted checkout page to send the browser to. Prices are the server's. */
  startCheckout(request: CreateCheckoutRequest): Promise<RedirectResponse>;
  /** `GET /me/checkout-sessions/{id}`: how a checkout of this account stands. */
  checkout(id: string): Promise<CheckoutStatus>;
  /** `POST /me/billing-portal-sessions`: Stripe's billing portal for this account. */
  openBillingPortal(): Promise<RedirectResponse>;
  /** `GET /me/billing`: the plan, the subscription and the price of an extra credit. */
  billing(): Promise<BillingResponse>;
}

const schemas = () => import('../../../events/payments');

export function paymentsApi(options: PaymentsApiOptions): PaymentsApi {
  const api = apiClient(options);
  return {
    startCheckout: (request) => api.read('POST', '/me/checkout-sessions', () => schemas().then((s) => s.RedirectResponse), { body: request }),
    checkout: (id) => api.read('GET', `/me/checkout-sessions/${encodeURIComponent(id)}`, () => schemas().then((s) => s.CheckoutStatus)),
    openBillingPortal: () => api.read('POST', '/me/billing-portal-sessions', () => schemas().then((s) => s.RedirectResponse), { body: {} }),
    billing: () => api.read('GET', '/me/billing', () => schemas().then((s) => s.BillingResponse)),
  };
}
