import DoneIcon from '@mui/icons-material/Done';
import ReplayIcon from '@mui/icons-material/Replay';
import ReplyIcon from '@mui/icons-material/Reply';
import { Alert, Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { Button, ListButton, Loading, ShowBase, Title, useNotify, useShowContext, useUpdate } from 'react-admin';
import type { AdminMessage } from '../../../events/admin';
import { formatDateTime } from '../common/format';
import { MessageStatusChip } from './MessageList';

function HandledButton({ message }: { message: AdminMessage }) {
  const notify = useNotify();
  const [update, { isPending }] = useUpdate();
  const handled = message.status === 'handled';
  return (
    <Button
      variant={handled ? 'outlined' : 'contained'}
      label={handled ? 'Mark as new' : 'Mark handled'}
      startIcon={handled ? <ReplayIcon /> : <DoneIcon />}
      disabled={isPending}
      onClick={() =>
        update(
          'messages',
          { id: message.id, data: { handled: !handled }, previousData: message },
          {
            mutationMode: 'pessimistic',
            onSuccess: () => notify(handled ? 'Marked as new.' : 'Marked handled.', { type: 'success' }),
            onError: (e) => notify(`Could not update the message. ${(e as Error).message ?? ''}`, { type: 'error' }),
          },
        )
      }
    />
  );
}

function MessagePage() {
  const { record, isPending, error } = useShowContext<AdminMessage>();
  if (isPending) return <Loading />;
  if (error || !record) return <Alert severity="error">This message could not be loaded.</Alert>;
  const emailState = (s?: string) => (s === 'failed' ? 'failed to send' : s ?? 'not sent yet');
  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4, maxWidth: 960 }}>
      <Title title={record.subject} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
              {record.subject}
            </Typography>
            <MessageStatusChip status={record.status} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            From {record.firstName} {record.lastName} (<Link href={`mailto:${record.email}?subject=${encodeURIComponent(`Re: ${record.subject}`)}`}>{record.email}</Link>) ·{' '}
            {formatDateTime(record.createdAt)}
            {record.page ? ` · sent from ${record.page}` : ''}
          </Typography>
        </Box>
        <Button
          label="Reply by email"
          startIcon={<ReplyIcon />}
          href={`mailto:${record.email}?subject=${encodeURIComponent(`Re: ${record.subject}`)}`}
          component="a"
        />
        <HandledButton message={record} />
        <ListButton label="All messages" />
      </Box>
      <Card>
        <CardContent>
          <Typography component="div" variant="body1" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {record.message}
          </Typography>
        </CardContent>
      </Card>
      <Typography variant="body2" color="text.secondary">
        Team copy {emailState(record.teamEmail)} · acknowledgement to the sender {emailState(record.ackEmail)}
        {record.status === 'handled' && record.handledAt ? ` · handled by ${record.handledBy ?? 'a reviewer'} on ${formatDateTime(record.handledAt)}` : ''}
      </Typography>
    </Stack>
  );
}

/** One contact message, with "Mark handled". */
export function MessageShow() {
  return (
    <ShowBase>
      <MessagePage />
    </ShowBase>
  );
}
