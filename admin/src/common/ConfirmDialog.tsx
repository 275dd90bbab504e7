import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * Asks before an action that cannot be undone (erasing a person's data, ending a contract): the
 * question, what happens (`children`), a way back and the action in red. While the action runs
 * (`pending`) both buttons are off, the action shows a spinner, and the dialog stays open.
 */
export function ConfirmDialog(props: {
  open: boolean;
  titleId: string;
  title: ReactNode;
  /** The way back's label. */
  cancel?: string;
  confirm: string;
  pending?: boolean;
  canConfirm?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { pending = false } = props;
  return (
    <Dialog open={props.open} onClose={pending ? undefined : props.onClose} aria-labelledby={props.titleId}>
      <DialogTitle id={props.titleId}>{props.title}</DialogTitle>
      <DialogContent>{props.children}</DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={pending}>
          {props.cancel ?? 'Cancel'}
        </Button>
        <Button
          onClick={props.onConfirm}
          color="error"
          variant="contained"
          disabled={pending || props.canConfirm === false}
          startIcon={pending ? <CircularProgress size={16} /> : undefined}
        >
          {props.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
