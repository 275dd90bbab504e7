import { Box, Card, CardContent, Typography } from '@mui/material';
import { Title, useGetIdentity } from 'react-admin';
import { BRAND_NAME } from '../brand';
import { WaitlistCard } from './WaitlistCard';

/** The console's home page: a welcome and the waitlist's fill level. */
export function Dashboard() {
  const { identity } = useGetIdentity();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 2 }}>
      <Title title="Dashboard" />
      <Card component="section" aria-labelledby="welcome-card-title">
        <CardContent>
          <Typography id="welcome-card-title" component="h1" variant="h5" gutterBottom>
            Review console
          </Typography>
          <Typography color="text.secondary">
            {identity?.fullName ? `Welcome, ${identity.fullName}. ` : 'Welcome. '}
            Here reviewers follow {BRAND_NAME}'s pre-launch signups and decide on founding talent applications.
          </Typography>
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <WaitlistCard />
      </Box>
    </Box>
  );
}
