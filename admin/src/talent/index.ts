import PortraitIcon from '@mui/icons-material/Portrait';
import { TalentEdit } from './TalentEdit';
import { TalentList } from './TalentList';

/** The talent catalog: list and curation of each profile. */
export const talent = {
  name: 'talent',
  list: TalentList,
  edit: TalentEdit,
  icon: PortraitIcon,
  options: { label: 'Talent' },
  recordRepresentation: 'name',
};
