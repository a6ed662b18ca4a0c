import dayjs from 'dayjs';
import { formatDateTime } from '../../../lib/date-formats';

/** §9: relative within the same day ("2 hours ago", in the user's language), otherwise the date and time. */
export function NotificationTime({ iso, now = new Date() }: { iso: string; now?: Date }) {
  const when = dayjs(iso);
  const text = when.isSame(now, 'day') ? when.from(now) : formatDateTime(when);
  return (
    <time dateTime={iso} title={when.format('LLL')}>
      {text}
    </time>
  );
}
