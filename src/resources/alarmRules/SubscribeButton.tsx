import Button from '@mui/material/Button';
import NotificationsIcon from '@mui/icons-material/NotificationsActiveOutlined';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOffOutlined';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { Level } from '../../domain/levels';
import { useCallMutation } from '../../data/dataHooks';
import { useClientState } from '../../state/useClientState';

const WORDS = 'resources.alarm/rule.subscribe';

/**
 * A sub-user's row button: "Tell me by mail" on a rule of its enterprise, or "Stop telling me".
 * The server accepts only rules that cover a vessel it was granted, and tells it of those only.
 */
export function SubscribeButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const level = useClientState((s) => s.permissionLevel);
  const userId = useClientState((s) => s.id);
  const { mutateAsync: subscribe, isPending } = useCallMutation('support', 'subscribeAlarmRule', { calls: [] });
  if (!record || level !== Level.SubUser || userId === null) return null;
  const subscribed = Array.isArray(record.userIds) && record.userIds.includes(userId);
  const run = async () => {
    try {
      await subscribe([Number(record.id), !subscribed]);
      notify(translate(subscribed ? `${WORDS}.left` : `${WORDS}.joined`), { type: 'success' });
      refresh();
    } catch {
      /* the error catalogue shows it (a rule without a vessel granted to this user: not found) */
    }
  };
  return (
    <Button
      size="small"
      startIcon={subscribed ? <NotificationsOffIcon /> : <NotificationsIcon />}
      disabled={isPending}
      onClick={run}
      data-testid="rule-subscribe"
    >
      {translate(subscribed ? `${WORDS}.leave` : `${WORDS}.join`)}
    </Button>
  );
}
