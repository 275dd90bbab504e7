import PersonOffIcon from '@mui/icons-material/PersonOff';
import type { ConsoleDataProvider } from '../dataProvider';
import { ErasurePage } from './ErasurePage';

/** The erasure page, in the menu as a resource whose list is the page (it lists nothing). */
export function erasure(dataProvider: ConsoleDataProvider) {
  return {
    name: 'erasures',
    list: () => <ErasurePage dataProvider={dataProvider} />,
    icon: PersonOffIcon,
    options: { label: 'Erasure' },
  };
}
