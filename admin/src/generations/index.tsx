import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import { GenerationList } from './GenerationList';
import { GenerationShow } from './GenerationShow';

/** Generations: filter by status, talent and client; one shows the workflow's steps, the prediction and the licensed images. */
export function generations(siteUrl?: string) {
  return {
    name: 'generations',
    list: GenerationList,
    show: () => <GenerationShow siteUrl={siteUrl} />,
    icon: AutoAwesomeIcon,
    options: { label: 'Generations' },
    recordRepresentation: 'id',
  };
}
