import { Box, Typography } from '@mui/material';
import { CONSOLE_TITLE } from '../brand';

/** The favicon's mark and the console title, as the heading of the sign-in and no-access cards. */
export function BrandMark() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5, pt: 4, px: 2 }}>
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 48, height: 48 }} />
      <Typography component="h1" variant="h5" sx={{ fontWeight: 600, textAlign: 'center' }}>
        {CONSOLE_TITLE}
      </Typography>
    </Box>
  );
}
