import GroupsIcon from '@mui/icons-material/Groups';
import { WaitlistList } from './WaitlistList';

/** The early-access waitlist: list, search, filters and CSV export. */
export const waitlist = {
  name: 'waitlist',
  list: WaitlistList,
  icon: GroupsIcon,
  options: { label: 'Waitlist' },
};
