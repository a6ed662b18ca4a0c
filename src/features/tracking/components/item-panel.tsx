import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../lib/date-formats';
import type { OrderDetailsItem } from '../../../contract/parts';
import { itemIcons, shippingState } from '../../../domain/tracking';
import { TrackingIconLegend } from '../../../components/tracking/tracking-icons';
import { ItemFields } from './item-fields';
import { carrierOf, itemTimeline, type TimelineStep } from './item-timeline';
import { deliveryLabel } from './status-labels';

function Step({ step }: { step: TimelineStep }) {
  const { t } = useTranslation();
  if (step.type === 'stage') {
    return (
      <li className={`timeline-step stage ${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined}>
        <span className="timeline-dot" aria-hidden="true" />
        <span className="timeline-text">
          <strong>{t(`tracking.stage.${step.stage}`)}</strong>
          <span className="muted small">
            {t(`tracking.stepState.${step.state}`)}
            {step.document && ` · ${step.document}`}
            {step.at && ` · ${formatDateTime(step.at)}`}
          </span>
        </span>
      </li>
    );
  }
  return (
    <li className={`timeline-step event ${step.type}`}>
      <span className="timeline-dot" aria-hidden="true" />
      <span className="timeline-text">
        <strong>{step.type === 'sms' ? t('tracking.smsSent') : step.description}</strong>
        <span className="muted small">
          <time dateTime={step.at}>{formatDateTime(step.at)}</time>
          {step.type === 'carrier' && step.location && ` · ${step.location}`}
        </span>
      </span>
    </li>
  );
}

/** One item of the order details: state, ETA, pickup place, icons with meaning, timeline, all fields. */
export function ItemPanel({ item, serviceOrder, now }: { item: OrderDetailsItem; serviceOrder: string | null; now: Date }) {
  const { t } = useTranslation();
  const state = shippingState(item);
  const { carrier, trackingUrl } = carrierOf(item);
  const isAccessPoint = item.deliveryType === 'AccessPoint';
  return (
    <article className="item-panel" aria-labelledby={`item-${item.id}`}>
      <header className="item-panel-head">
        <h2 id={`item-${item.id}`}>
          {item.materialCode} · {item.materialDescription}
        </h2>
        <span className="status-chip">{deliveryLabel(t, item)}</span>
      </header>
      <dl className="item-facts">
        <div>
          <dt>{t('tracking.eta')}</dt>
          <dd>{item.deliveryStatus === 'Delivered' ? t('tracking.deliveredOn', { date: formatDate(item.deliveryDate) }) : item.eta ? formatDate(item.eta) : t('tracking.noEta')}</dd>
        </div>
        <div>
          <dt>{isAccessPoint ? t('tracking.pickupAt') : t('tracking.deliveryTo')}</dt>
          <dd>
            {item.deliveryAddress ?? t('tracking.noAddress')}
            {item.addressCode && <span className="muted small"> ({item.addressCode})</span>}
          </dd>
        </div>
        <div>
          <dt>{t('tracking.parcel')}</dt>
          <dd>
            {item.trackingNumber && state !== 'waitingForDispatch' ? (
              <>
                {carrier && `${carrier} · `}
                {trackingUrl ? (
                  <a href={trackingUrl} target="_blank" rel="noreferrer noopener">
                    {item.trackingNumber}
                  </a>
                ) : (
                  item.trackingNumber
                )}
              </>
            ) : (
              t(`tracking.shipping.${state}`)
            )}
          </dd>
        </div>
      </dl>
      <TrackingIconLegend only={itemIcons(item, now)} />
      <h3 className="section-title">{t('tracking.timeline')}</h3>
      <ol className="timeline" aria-label={t('tracking.timeline')}>
        {itemTimeline(item, serviceOrder).map((step, index) => (
          <Step key={index} step={step} />
        ))}
      </ol>
      <ItemFields item={item} />
    </article>
  );
}
