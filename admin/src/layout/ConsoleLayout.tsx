import type { ReactNode } from 'react';
import { Layout, LoadingPage, Navigate } from 'react-admin';
import { NO_ACCESS_PATH } from '../auth/NoAccessPage';
import { TWO_FACTOR_SETUP_PATH } from '../auth/TwoFactorSetupPage';
import { useConsoleAccess, useLoginRedirect } from '../auth/useConsoleAccess';
import { ConsoleAppBar } from './ConsoleAppBar';

/**
 * react-admin's layout, shown only to members of the admin group. Signed-out visitors go to
 * the login page and other users to the no-access page, before any page (and so any data
 * request) mounts. The API checks the group as well; this spares such users a console full
 * of errors. It replaces `<Admin requireAuth>` (see useConsoleAccess for why).
 */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const access = useConsoleAccess();
  const login = useLoginRedirect();
  switch (access) {
    case 'pending':
      return <LoadingPage />;
    case 'signed-out':
      return <Navigate to={login.to} state={login.state} replace />;
    case 'no-access':
      return <Navigate to={NO_ACCESS_PATH} replace />;
    case 'needs-two-factor':
      return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
    case 'admin':
      return <Layout appBar={ConsoleAppBar}>{children}</Layout>;
  }
}
