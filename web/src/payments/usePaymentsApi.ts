import { useMemo } from 'react';
import { useConfig } from '../config';
import type { AuthContextValue } from '../auth/types';
import { paymentsApi, type PaymentsApi } from './api';

/** The payments API with the signed-in person's token. */
export function usePaymentsApi(getIdToken: AuthContextValue['getIdToken']): PaymentsApi {
  const { apiUrl } = useConfig();
  return useMemo(() => paymentsApi({ apiUrl, getIdToken }), [apiUrl, getIdToken]);
}

/** Sends the browser to Stripe's hosted page; the page being left is replaced, so Back returns before it. */
export function leaveForStripe(url: string, replace = false): void {
  if (replace) window.location.replace(url);
  else window.location.assign(url);
}
