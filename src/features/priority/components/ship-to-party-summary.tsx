/** §5: the ship-to-party numbers the user holds, counted against the maximum, or that there are none. */
import { useTranslation } from 'react-i18next';
import { MAX_SHIP_TO_PARTY_NUMBERS } from '../../../domain/constants';
import '../priority.css';

export function ShipToPartySummary({ codes, isSuperManager }: { codes: string[] | undefined; isSuperManager: boolean }) {
  const { t } = useTranslation();
  if (!codes) return null;
  if (codes.length === 0) {
    return (
      <p className="notice" role="status">
        {t('priority.noShipToParty')}
      </p>
    );
  }
  return (
    <p className="muted priority-summary">
      {isSuperManager
        ? t('priority.allShipToParties', { count: codes.length })
        : t('priority.shipToPartyCount', { count: codes.length, max: MAX_SHIP_TO_PARTY_NUMBERS })}
      {!isSuperManager && <span className="priority-codes"> {codes.join(', ')}</span>}
    </p>
  );
}
