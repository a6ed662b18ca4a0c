import { useTranslation } from 'react-i18next';
import { STATUS_ORDER } from './file-status';

/** The colour key of the bars; every status also has its name, never colour alone. */
export function StatusLegend() {
  const { t } = useTranslation();
  return (
    <ul className="fd-legend" aria-label={t('files.legend')}>
      {STATUS_ORDER.map((status) => (
        <li key={status}>
          <span className={`fd-swatch fd-${status}`} aria-hidden="true" />
          {t(`files.status.${status}`)}
        </li>
      ))}
    </ul>
  );
}
