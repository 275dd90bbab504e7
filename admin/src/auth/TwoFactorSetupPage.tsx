import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { setUpTOTP, signOut, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { useState, type FormEvent } from 'react';
import { Navigate, useGetIdentity, useLogout, useNotify } from 'react-admin';
import { BRAND_BACKDROP } from '../brand';
import { BrandMark } from './BrandMark';
import { useConsoleAccess, useLoginRedirect } from './useConsoleAccess';

/** Path of the page where an admin turns on two-factor sign-in. */
export const TWO_FACTOR_SETUP_PATH = '/two-factor';

const ISSUER = 'Humanly review console';

/**
 * An admin whose account has no two-factor sign-in yet sets it up here: the console shows a
 * key (and its otpauth address) for an authenticator app, checks one code, makes TOTP the
 * preferred second factor, and signs out, so the next sign-in asks for a code and the API
 * accepts its token. It is a route without the layout: no data loads before it is done.
 */
export function TwoFactorSetupPage() {
  const access = useConsoleAccess();
  const login = useLoginRedirect();
  const { identity } = useGetIdentity();
  const logout = useLogout();
  const notify = useNotify();
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (access === 'pending') return null;
  if (access === 'signed-out') return <Navigate to={login.to} state={login.state} replace />;
  if (access !== 'needs-two-factor') return <Navigate to="/" replace />;

  const start = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const details = await setUpTOTP();
      setSetup({ secret: details.sharedSecret, uri: details.getSetupUri(ISSUER, identity?.fullName ?? undefined).toString() });
    } catch (e) {
      setError(`Could not start the set-up: ${e instanceof Error ? e.message : 'unknown error'}. Sign out, sign in and try again.`);
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError('Enter the six-digit code your authenticator app shows.');
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await verifyTOTPSetup({ code: digits });
      await updateMFAPreference({ totp: 'PREFERRED' });
    } catch (e) {
      setBusy(false);
      setError(
        e instanceof Error && e.name === 'CodeMismatchException'
          ? 'That code is not right or has expired. Enter the current code from your authenticator app.'
          : `Could not turn on two-factor sign-in: ${e instanceof Error ? e.message : 'unknown error'}.`,
      );
      return;
    }
    await signOut().catch(() => undefined);
    notify('Two-factor sign-in is on. Sign in again with your password and the code from your app.', { type: 'success' });
    logout();
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', justifyContent: 'center', alignItems: 'flex-start', backgroundImage: BRAND_BACKDROP }}>
      <Card sx={{ mt: '6em', width: 480, maxWidth: 'calc(100vw - 32px)' }}>
        <BrandMark />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography component="h2" variant="h6" sx={{ textAlign: 'center' }}>
            Turn on two-factor sign-in
          </Typography>
          <Typography variant="body2">
            The review console shows applicants&apos; photos, so admins sign in with a password and a code from an
            authenticator app.
          </Typography>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {!setup ? (
            <Button variant="contained" onClick={start} disabled={busy} fullWidth>
              Set up an authenticator app
            </Button>
          ) : (
            <Box component="form" onSubmit={verify} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              <Typography variant="body2">Add this key to your authenticator app (type it in, or open the address on the device that has the app):</Typography>
              <Typography component="code" aria-label="Authenticator key" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {setup.secret}
              </Typography>
              <Typography component="code" aria-label="Authenticator address" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {setup.uri}
              </Typography>
              <TextField
                label="Code from your app"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoComplete="one-time-code"
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                required
              />
              <Button type="submit" variant="contained" disabled={busy} fullWidth>
                Turn on two-factor sign-in
              </Button>
            </Box>
          )}
          <Button onClick={() => logout()} fullWidth>
            Sign out
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
