import GroupsIcon from '@mui/icons-material/Groups';
import { Alert, Box, Button, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import { useStats } from './useStats';

/** "Waitlist: N of CAPACITY signed up", from GET /admin/stats. */
export function WaitlistCard() {
  const stats = useStats();
  return (
    <Card component="section" aria-labelledby="waitlist-card-title" sx={{ flex: 1, minWidth: 280 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
          <GroupsIcon color="primary" />
          <Typography id="waitlist-card-title" component="h2" variant="h6">
            Early-access waitlist
          </Typography>
        </Box>
        {stats.status === 'loading' ? (
          <Box role="status">
            <Typography color="text.secondary" sx={{ fontSize: '1.25rem' }}>
              Loading waitlist numbers…
            </Typography>
            <LinearProgress aria-label="Loading" sx={{ mt: 1.5, height: 8, borderRadius: 4 }} />
          </Box>
        ) : stats.status === 'error' ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={stats.reload}>
                Retry
              </Button>
            }
          >
            Could not load the waitlist numbers. {stats.message}
          </Alert>
        ) : (
          <>
            <Typography variant="body1" sx={{ fontSize: '1.25rem', fontWeight: 500 }}>
              Waitlist: {stats.stats.waitlist.count} of {stats.stats.waitlist.capacity} signed up
            </Typography>
            <LinearProgress
              variant="determinate"
              value={percent(stats.stats.waitlist.count, stats.stats.waitlist.capacity)}
              aria-label="Waitlist filled"
              sx={{ mt: 1.5, height: 8, borderRadius: 4 }}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function percent(count: number, capacity: number): number {
  return capacity > 0 ? Math.min(100, Math.round((count / capacity) * 100)) : 0;
}
