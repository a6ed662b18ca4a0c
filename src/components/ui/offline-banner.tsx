import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatDateTime } from '../../lib/date-formats';
import { Icon } from './icons';

/** §3: offline, the screen says so and when the data it shows was saved. */
export function OfflineBanner({ savedAt }: { savedAt: number | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="offline-banner" role="status">
      <Icon name="offline" size={20} />
      <span>
        {savedAt
          ? t('offline.savedAt', { when: dayjs(savedAt).fromNow(), time: formatDateTime(savedAt) })
          : t('offline.notSaved')}
      </span>
    </div>
  );
}
