import { useMemo } from 'react';
import { useConfig } from '../../config';
import { accountApi, type AccountApi } from '../../account/api';
import type { AuthContextValue } from '../../auth/types';

/** The account API with the signed-in person's token (the auth context refreshes it when needed). */
export function useAccountApi(getIdToken: AuthContextValue['getIdToken']): AccountApi {
  const { apiUrl } = useConfig();
  return useMemo(() => accountApi({ apiUrl, getIdToken }), [apiUrl, getIdToken]);
}
