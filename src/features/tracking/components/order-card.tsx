import { memo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/date-formats';
import type { TrackingRow } from '../../../contract/parts';
import { itemIcons } from '../../../domain/tracking';
import { TrackingIconSet } from '../../../components/tracking/tracking-icons';
import { deliveryLabel, deliveryTone } from './status-labels';
import { FROM_MONITOR } from '../utils/monitor-return';
import '../tracking.css';

/**
 * One order row of the status monitor: the order, its summary date and its (matching) items.
 * Memoized: the row comes from the page's query (structurally shared) and `now` is the screen's
 * one clock, so the monitor's other updates at start (profile, counts of the other tabs, sync
 * state) do not draw a page's 20 cards and their icons again on a mid-range phone (#22).
 */
export const OrderCard = memo(function OrderCard({ row, now }: { row: TrackingRow; now: Date }) {
  const { t } = useTranslation();
  const summary = row.summary;
  return (
    <li className="order-card">
      <div className="order-card-head">
        {/* Opened from the monitor: the order's Back returns to this entry (one constant, so the memo holds). */}
        <Link to={`/order-details/${encodeURIComponent(row.orderId)}`} state={FROM_MONITOR} className="order-card-link">
          {t('tracking.serviceOrder', { id: row.serviceOrder ?? row.orderId })}
        </Link>
        {summary && (
          <span className="order-card-date">
            {t(summary.kind === 'eta' ? 'tracking.etaOn' : 'tracking.deliveryDateOn', { date: formatDate(summary.date) })}
          </span>
        )}
      </div>
      <div className="order-card-meta">
        {row.equipmentCode && <span>{t('tracking.equipment', { code: row.equipmentCode })}</span>}
        {row.equipmentDescription && <span>{row.equipmentDescription}</span>}
        {row.destination && <span>{row.destination}</span>}
      </div>
      <ul className="order-items">
        {row.items.map((item) => (
          <li key={item.id} className="order-item">
            <span className="order-item-material">
              <strong>{item.materialCode}</strong> {item.materialDescription}
            </span>
            <span className={`status-chip status-${deliveryTone(item)}`}>{deliveryLabel(t, item)}</span>
            {/* Icons are worked out again with this device's clock: an offline copy may be days old. */}
            <TrackingIconSet icons={itemIcons(item, now)} t={t} />
          </li>
        ))}
      </ul>
    </li>
  );
});
