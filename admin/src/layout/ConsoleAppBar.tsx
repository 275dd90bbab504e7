import { Box, Typography } from '@mui/material';
import { AppBar, TitlePortal } from 'react-admin';
import { CONSOLE_TITLE } from '../brand';

/** On a phone only the page's title follows the logo, so the bar fits the screen. */
const wideOnly = { display: { xs: 'none', sm: 'inline' } } as const;

/** The default app bar with the console's name ahead of the page title. */
export function ConsoleAppBar() {
  return (
    <AppBar>
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 24, height: 24, mr: 1 }} />
      <Typography variant="h6" component="span" sx={{ fontWeight: 600, whiteSpace: 'nowrap', ...wideOnly }}>
        {CONSOLE_TITLE}
      </Typography>
      <Typography variant="h6" component="span" sx={{ mx: 1.5, opacity: 0.6, ...wideOnly }} aria-hidden>
        /
      </Typography>
      <TitlePortal />
    </AppBar>
  );
}
