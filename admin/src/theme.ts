import { deepmerge } from '@mui/utils';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { BRAND_BACKDROP, BRAND_COLORS } from './brand';

/** react-admin's default light theme in the brand's colours, fitted to a phone's width. */
export const theme: RaThemeOptions = deepmerge(defaultTheme, {
  palette: {
    primary: { main: BRAND_COLORS.plum, contrastText: '#fff' },
    // react-admin paints the app bar with the secondary colour.
    secondary: { light: '#a04f8e', main: '#4a1840', dark: '#2f0e29', contrastText: '#fff' },
    // Material's own warning (#ed6c02, 3.1:1) and info (#0288d1, 3.9:1) are too light for white
    // text: status chips ("Pending review", "Validating") read at 5.0:1 and 4.8:1 instead (WCAG AA).
    warning: { light: '#d97706', main: '#b45309', dark: '#92400e', contrastText: '#fff' },
    info: { light: '#0288d1', main: '#0277bd', dark: '#01579b', contrastText: '#fff' },
  },
  components: {
    // react-admin widens the whole page to its widest content (minWidth: fit-content), so a list
    // table on a phone pushed every page sideways. The page keeps the screen's width instead, and
    // a list's table scrolls sideways inside its own box.
    RaLayout: {
      styleOverrides: {
        root: {
          minWidth: 0,
          '& .RaLayout-content': { minWidth: 0 },
        },
      },
    },
    RaList: {
      styleOverrides: {
        root: {
          '& .RaList-main': { minWidth: 0 },
          '& .RaList-content': { overflowX: 'auto' },
        },
      },
    },
    RaLogin: {
      styleOverrides: {
        root: {
          backgroundImage: BRAND_BACKDROP,
        },
      },
    },
  },
} satisfies RaThemeOptions);
