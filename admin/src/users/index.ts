import PeopleIcon from '@mui/icons-material/People';
import { UserList } from './UserList';
import { UserShow } from './UserShow';

/** Client and talent accounts: search, plans, credits, disabling, and the audit of every change. */
export const users = {
  name: 'users',
  list: UserList,
  show: UserShow,
  icon: PeopleIcon,
  options: { label: 'Users' },
  recordRepresentation: 'email',
};
