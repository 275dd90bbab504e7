import { Typography } from '@mui/material';
import { email, Login, LoginForm, PasswordInput, required, TextInput } from 'react-admin';
import { BrandMark } from './BrandMark';

/**
 * react-admin's login page with an email field instead of "Username": Cognito signs the
 * admins in by email. Errors from authProvider.login show as a notification.
 */
export function LoginPage() {
  return (
    <Login sx={{ '& .RaLogin-avatar': { display: 'none' } }}>
      <BrandMark />
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', px: 2, pt: 1 }}>
        Sign in to review founding talent.
      </Typography>
      <LoginForm>
        <TextInput
          autoFocus
          source="email"
          label="Email"
          type="email"
          autoComplete="username"
          validate={[required(), email()]}
        />
        <PasswordInput source="password" label="Password" autoComplete="current-password" validate={required()} />
        <TextInput
          source="code"
          label="Two-factor code"
          helperText="The six-digit code from your authenticator app. Leave it empty if you have not set one up yet."
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </LoginForm>
    </Login>
  );
}
