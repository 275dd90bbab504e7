import LogoutIcon from '@mui/icons-material/Logout';
import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Navigate, useGetIdentity, useLogout } from 'react-admin';
import { BRAND_BACKDROP } from '../brand';
import { NO_ACCESS_MESSAGE } from '../authProvider';
import { BrandMark } from './BrandMark';
import { useConsoleAccess, useLoginRedirect } from './useConsoleAccess';

/** Path of the page shown to signed-in users outside the admin group. */
export const NO_ACCESS_PATH = '/no-access';

/**
 * Full-page notice for a signed-in user who is not in the admin group. It is a route
 * without the layout, so such a user never gets a menu or a data request.
 */
export function NoAccessPage() {
  const access = useConsoleAccess();
  const login = useLoginRedirect();
  const { identity } = useGetIdentity();
  const logout = useLogout();
  if (access === 'pending') return null;
  if (access === 'signed-out') return <Navigate to={login.to} state={login.state} replace />;
  if (access === 'admin' || access === 'needs-two-factor') return <Navigate to="/" replace />;
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        justifyContent: 'center',
        alignItems: 'flex-start',
        backgroundImage: BRAND_BACKDROP,
      }}
    >
      <Card sx={{ mt: '6em', width: 420, maxWidth: 'calc(100vw - 32px)' }}>
        <BrandMark />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography component="h2" variant="h6" sx={{ textAlign: 'center' }}>
            No access
          </Typography>
          <Alert severity="warning">{NO_ACCESS_MESSAGE}</Alert>
          {identity?.fullName ? (
            <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
              Signed in as {identity.fullName}
            </Typography>
          ) : null}
          <Button variant="contained" startIcon={<LogoutIcon />} onClick={() => logout()} fullWidth>
            Sign out
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
