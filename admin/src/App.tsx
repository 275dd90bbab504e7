import { useMemo } from 'react';
import { Route } from 'react-router';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { CONSOLE_TITLE } from './brand';
import type { AdminConfig } from './config';
import { authProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { LoginPage } from './auth/LoginPage';
import { NO_ACCESS_PATH, NoAccessPage } from './auth/NoAccessPage';
import { TWO_FACTOR_SETUP_PATH, TwoFactorSetupPage } from './auth/TwoFactorSetupPage';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { Dashboard } from './dashboard/Dashboard';
import { applications } from './applications';
import { waitlist } from './waitlist';
import { talent } from './talent';
import { messages } from './messages';
import { erasure } from './erasure';
import { users } from './users';
import { generations } from './generations';
import { statements } from './statements';
import { payoutRuns } from './payouts';
import { reports } from './reports';
import { theme } from './theme';

export function App({ config }: { config: AdminConfig }) {
  const dataProvider = useMemo(() => createDataProvider(config.apiUrl), [config.apiUrl]);
  const generationsResource = useMemo(() => generations(config.siteUrl), [config.siteUrl]);
  const reportsResource = useMemo(() => reports(config.siteUrl), [config.siteUrl]);
  return (
    <Admin
      title={CONSOLE_TITLE}
      disableTelemetry
      // No requireAuth: ConsoleLayout guards every page (see auth/useConsoleAccess.ts).
      requireAuth={false}
      authProvider={authProvider}
      dataProvider={dataProvider}
      dashboard={Dashboard}
      loginPage={LoginPage}
      layout={ConsoleLayout}
      theme={theme}
    >
      <Resource {...applications} />
      <Resource {...reportsResource} />
      <Resource {...waitlist} />
      <Resource {...talent} />
      <Resource {...messages} />
      <Resource {...users} />
      <Resource {...generationsResource} />
      <Resource {...statements} />
      <Resource {...payoutRuns} />
      <Resource {...erasure(dataProvider)} />
      {/* Outside the layout: users outside the admin group see no menu and load no data. */}
      <CustomRoutes noLayout>
        <Route path={NO_ACCESS_PATH} element={<NoAccessPage />} />
        <Route path={TWO_FACTOR_SETUP_PATH} element={<TwoFactorSetupPage />} />
      </CustomRoutes>
    </Admin>
  );
}
