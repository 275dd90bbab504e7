import PersonOffIcon from '@mui/icons-material/PersonOff';
import { ErasurePage } from './ErasurePage';

/** The erasure page, in the menu as a resource whose list is the page (it lists nothing). */
export function erasure(apiUrl: string) {
  return {
    name: 'erasures',
    list: () => <ErasurePage apiUrl={apiUrl} />,
    icon: PersonOffIcon,
    options: { label: 'Erasure' },
  };
}
