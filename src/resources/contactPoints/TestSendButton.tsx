import Button from '@mui/material/Button';
import SendIcon from '@mui/icons-material/Send';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useCallMutation } from '../../data/dataHooks';

const WORDS = 'resources.service/contactPoint.test';

/** A row's "Test" button: a test message to the contact point now, and what came of it. */
export function TestSendButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  // A test changes nothing that is shown.
  const { mutateAsync: testSend, isPending } = useCallMutation('support', 'testContactPoint', { calls: [] });
  if (!record) return null;
  const run = async () => {
    try {
      const result = await testSend([Number(record.id)]);
      if (result.delivered) notify(translate(`${WORDS}.sent`, { ms: result.ms }), { type: 'success' });
      else notify(result.message ?? '', { type: 'error', autoHideDuration: 10_000 });
    } catch {
      /* the error catalogue shows it */
    }
  };
  return (
    <Button size="small" startIcon={<SendIcon />} disabled={isPending} onClick={run} data-testid="contact-test-send">
      {translate(`${WORDS}.action`)}
    </Button>
  );
}
