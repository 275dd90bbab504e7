import { Box, Typography } from '@mui/material';
import { AppBar, LoadingIndicator, TitlePortal } from 'react-admin';
import { CONSOLE_TITLE } from '../brand';

/** On a phone only the page's title follows the logo, so the bar fits the screen. */
const wideOnly = { display: { xs: 'none', sm: 'inline' } } as const;

/**
 * The default app bar with the console's name ahead of the page title. Its refresh button shows a
 * spinner while any list or record reloads; the spinner is named, so a screen reader says what it
 * is (the default one is a progress bar without a name).
 */
export function ConsoleAppBar() {
  return (
    <AppBar toolbar={<LoadingIndicator aria-label="Refreshing" />}>
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
