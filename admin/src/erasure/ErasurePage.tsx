import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import { Alert, Box, Button, Card, CardContent, DialogContentText, Table, TableBody, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Title } from 'react-admin';
import type { ErasureCounts, ErasureResult } from '../../../events/erasure';
import { ConfirmDialog } from '../common/ConfirmDialog';
import type { ConsoleDataProvider } from '../dataProvider';

const PLACES: Array<[keyof ErasureCounts, string]> = [
  ['waitlist', 'Waitlist items'],
  ['messages', 'Contact messages'],
  ['applications', 'Founding applications'],
  ['applicationItems', 'Application records (history, drafts, links)'],
  ['photos', 'Photos'],
  ['accounts', 'Sign-in accounts'],
  ['accountItems', 'Profiles, credits and account history'],
  ['idempotencyRecords', 'Kept request answers'],
  ['generations', 'Generations (kept for accounting, without email, name or prompt)'],
  ['licenses', 'Licenses (kept valid, issued to "A Humanly client")'],
  ['images', 'Generated images and thumbnails'],
  ['payoutDetails', 'Payout details'],
  ['statements', 'Royalty statements (kept for accounting, without the name)'],
  ['modelVersions', 'Likeness model versions (deleted on Replicate)'],
  ['trainingFiles', 'Training photo sets and sample images'],
  ['trainingRecords', 'Likeness model and training records'],
  ['subscriptionsCanceled', 'Stripe subscriptions canceled (no further renewals)'],
  ['stripeCustomersDeleted', 'Stripe customers deleted, with their saved cards'],
  ['paymentsAnonymised', 'Payments (kept for accounting and refunds, without receipt links or refund notes)'],
];

/**
 * Erase a person's data by email (GDPR Art. 17, docs/decisions/019-erasure.md). The admin types
 * the address, then confirms it by typing it again in a dialog that says what will be removed;
 * the API checks the two match as well. The answer lists what was removed; the erasure record
 * keeps only a hash of the address. It calls the data provider itself, not through react-admin's
 * hook, so a refusal (an ended session included) shows its reason here instead of leaving the page.
 */
export function ErasurePage({ dataProvider }: { dataProvider: ConsoleDataProvider }) {
  const [email, setEmail] = useState('');
  const [confirm, setConfirm] = useState('');
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ErasureResult | null>(null);
  const same = confirm.trim().toLowerCase() === email.trim().toLowerCase();

  const erase = async () => {
    setPending(true);
    setError(null);
    try {
      setResult((await dataProvider.eraseData(email, confirm)).data);
      setAsking(false);
      setEmail('');
      setConfirm('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 720, mt: 2 }}>
      <Title title="Erase a person's data" />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h1" gutterBottom>
            Erase a person&apos;s data
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            When someone asks to be forgotten, this removes everything we hold under their email address: their waitlist
            signup, contact messages, founding applications and photos, their sign-in account, the images they generated,
            their payout details and kept request answers. A client&apos;s subscriptions are canceled at once and their
            Stripe customer and saved cards deleted, so they are never charged again. Their licenses stay valid without their name, and their
            generations and statements stay for accounting without it. It cannot be undone. A record of the erasure is
            kept, without the address.
          </Typography>
          <Box
            component="form"
            onSubmit={(e) => {
              e.preventDefault();
              setError(null);
              setAsking(true);
            }}
            sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}
          >
            <TextField
              label="Email address"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'erasure-email' } }}
              sx={{ flex: 1 }}
            />
            <Button type="submit" variant="contained" color="error" startIcon={<DeleteForeverIcon />} disabled={!email.trim()} sx={{ mt: 1 }}>
              Erase…
            </Button>
          </Box>
          {result && (
            <Alert severity="success" sx={{ mt: 2 }} data-testid="erasure-result">
              Erased at {new Date(result.erasedAt).toLocaleString()} (record {result.id}).
              <Table size="small" sx={{ mt: 1 }}>
                <TableBody>
                  {PLACES.map(([key, label]) => (
                    <TableRow key={key}>
                      <TableCell>{label}</TableCell>
                      <TableCell align="right">{result.removed[key]}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Alert>
          )}
        </CardContent>
      </Card>

      <ConfirmDialog
        open={asking}
        titleId="erasure-confirm-title"
        title={`Erase everything for ${email.trim()}?`}
        confirm="Erase permanently"
        pending={pending}
        canConfirm={same && !!confirm.trim()}
        onConfirm={erase}
        onClose={() => setAsking(false)}
      >
        <DialogContentText sx={{ mb: 2 }}>
          This permanently deletes their waitlist place, messages, applications with every photo, their account, the images
          they generated and their payout details, and cancels their subscription at once. Their licenses stay valid, issued to &ldquo;A Humanly client&rdquo;; their
          generations and statements stay for accounting without their name. Type the address again to confirm.
        </DialogContentText>
        <TextField
          label="Type the address again"
          fullWidth
          autoFocus
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={confirm.length > 0 && !same}
          helperText={confirm.length > 0 && !same ? 'This does not match the address above.' : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'erasure-confirm' } }}
        />
        {error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        )}
      </ConfirmDialog>
    </Box>
  );
}
