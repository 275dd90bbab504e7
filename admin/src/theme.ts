import { deepmerge } from '@mui/utils';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { BRAND_BACKDROP, BRAND_COLORS } from './brand';

/** react-admin's default light theme in the brand's colours. */
export const theme: RaThemeOptions = deepmerge(defaultTheme, {
  palette: {
    primary: { main: BRAND_COLORS.plum, contrastText: '#fff' },
    // react-admin paints the app bar with the secondary colour.
    secondary: { light: '#a04f8e', main: '#4a1840', dark: '#2f0e29', contrastText: '#fff' },
  },
  components: {
    RaLogin: {
      styleOverrides: {
        root: {
          backgroundImage: BRAND_BACKDROP,
        },
      },
    },
  },
} satisfies RaThemeOptions);
