import MailIcon from '@mui/icons-material/Mail';
import { MessageList } from './MessageList';
import { MessageShow } from './MessageShow';

/** Messages from the site's contact forms: list, read, mark handled. */
export const messages = {
  name: 'messages',
  list: MessageList,
  show: MessageShow,
  icon: MailIcon,
  options: { label: 'Messages' },
  recordRepresentation: 'subject',
};
