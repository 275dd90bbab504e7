import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import { ApplicationList } from './ApplicationList';
import { ApplicationShow } from './ApplicationShow';

/** Founding and standard talent applications: list, review page, decisions. */
export const applications = {
  name: 'applications',
  list: ApplicationList,
  show: ApplicationShow,
  icon: AssignmentIndIcon,
  options: { label: 'Applications' },
  recordRepresentation: (r: { firstName?: string; lastName?: string }) => [r.firstName, r.lastName].filter(Boolean).join(' '),
};
