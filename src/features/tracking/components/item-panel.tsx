import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../lib/date-formats';
import type { OrderDetailsItem } from '../../../contract/parts';
import { shippingState } from '../../../domain/tracking';
import { iconReasons } from '../../../domain/icon-reasons';
import { TRACKING_ICON_KINDS, TrackingIcon } from '../../../components/tracking/tracking-icons';
import { ItemFields } from './item-fields';
import { carrierOf, itemTimeline, type TimelineStep } from './item-timeline';
import { deliveryLabel, deliveryTone } from './status-labels';
import '../tracking.css';

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

/** #19 item 18: what each icon says about this item, in plain words (not the legend's "or"s). */
function IconExplanation({ item, now }: { item: OrderDetailsItem; now: Date }) {
  const { t } = useTranslation();
  const reasons = iconReasons(item, now);
  return (
    <dl className="track-legend item-icon-reasons">
      {TRACKING_ICON_KINDS.map((kind) => (
        <div key={kind} className="track-legend-group">
          <dt>{t(`trackingIcons.${kind}.name`)}</dt>
          <dd>
            <TrackingIcon kind={kind} state={reasons[kind].state} size={20} />
            <span>{t(`trackingIcons.reason.${kind}.${reasons[kind].reason}`, { po: item.purchaseOrderDocNumber ?? '' })}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One item of the order details: state, ETA, pickup place, icons with meaning, timeline, all fields. */
export function ItemPanel({ item, serviceOrder, now }: { item: OrderDetailsItem; serviceOrder: string | null; now: Date }) {
  const { t, i18n } = useTranslation();
  const state = shippingState(item);
  const { carrier, trackingUrl } = carrierOf(item);
  const isAccessPoint = item.deliveryType === 'AccessPoint';
  return (
    <article className="item-panel" aria-labelledby={`item-${item.id}`}>
      <header className="item-panel-head">
        <h2 id={`item-${item.id}`}>
          {item.materialCode} · {item.materialDescription}
        </h2>
        <span className={`status-chip status-${deliveryTone(item)}`}>{deliveryLabel(t, item)}</span>
      </header>
      <dl className="item-facts">
        <div>
          <dt>{t('tracking.eta')}</dt>
          <dd>
            {item.deliveryStatus === 'Delivered'
              ? item.deliveryDate
                ? t('tracking.deliveredOn', { date: formatDate(item.deliveryDate) })
                : t('tracking.deliveryStatus.Delivered')
              : item.eta
                ? formatDate(item.eta)
                : item.deliveryDate
                  ? t('tracking.deliveryDateOn', { date: formatDate(item.deliveryDate) })
                  : t('tracking.noEta')}
          </dd>
        </div>
        <div>
          <dt>{isAccessPoint ? t('tracking.pickupAt') : t('tracking.deliveryTo')}</dt>
          <dd>
            {item.deliveryAddress ? (
              <>
                {item.deliveryAddress}
                {item.addressCode && <span className="muted small"> ({item.addressCode})</span>}
              </>
            ) : (
              item.addressCode || t('tracking.noAddress')
            )}
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
              // The item's state is in its header already (#19 item 18: not shown twice).
              t('tracking.noParcelYet')
            )}
          </dd>
        </div>
      </dl>
      <IconExplanation item={item} now={now} />
      <h3 className="section-title">{t('tracking.timeline')}</h3>
      <ol className="timeline" aria-label={t('tracking.timeline')}>
        {itemTimeline(item, serviceOrder, i18n.language).map((step, index) => (
          <Step key={index} step={step} />
        ))}
      </ol>
      <ItemFields item={item} />
    </article>
  );
}
