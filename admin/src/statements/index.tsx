import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { StatementList } from './StatementList';
import { StatementShow } from './StatementShow';

/** Statements: each talent's closed months, filtered by month, talent and payout; one shows its lines and marks it paid. */
export const statements = {
  name: 'statements',
  list: StatementList,
  show: StatementShow,
  icon: ReceiptLongIcon,
  options: { label: 'Statements' },
  recordRepresentation: 'id',
};
