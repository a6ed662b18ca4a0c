/** /order-details/{orderId} (§2): one order, every item with its timeline, icons and fields. */
import { useLayoutEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useNavigationType, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NothingSavedError } from '../../../offline/mirror';
import { GoneError } from '../../../offline/errors';
import { statusOf } from '../../../lib/api-client';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { orderFromList, useOrderDetails } from '../api/get-order-details';
import { trackingQueries } from '../api/get-tracking-status';
import { LoadError } from '../../../components/ui/load-error';
import { ItemPanel } from '../components/item-panel';
import { cameFromMonitor } from '../utils/monitor-return';
import '../tracking.css';

export default function OrderDetailsPage() {
  const { t } = useTranslation();
  const orderId = useParams().orderId ?? '';
  const { email } = useProfile();
  const online = useOnline();
  const [now] = useState(() => new Date());
  const details = useOrderDetails(email, orderId);
  const queryClient = useQueryClient();
  // Nothing saved of this order (offline, never opened): what the status monitor lists of it.
  const nothingSaved = details.error instanceof NothingSavedError;
  const fromList = useQuery({
    queryKey: [...trackingQueries.order(orderId), 'from-list', email],
    queryFn: () => orderFromList(queryClient, email, orderId),
    enabled: nothingSaved,
    networkMode: 'always',
  });
  const listed = nothingSaved ? (fromList.data ?? null) : null;
  // Gone or no longer the caller's (404, 403): the last good copy TanStack keeps after a failed
  // refetch is not shown under the "not found" message, as if the order were still there.
  const gone = details.error != null && (statusOf(details.error) === 404 || statusOf(details.error) === 403 || details.error instanceof GoneError);
  const order = gone ? undefined : (details.data ?? listed?.row ?? undefined);
  const location = useLocation();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  // Opened from the list far down, the order started that far down too: an opened order starts at
  // its top. Back or Forward to it (POP) leaves the browser's own position.
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [orderId, navigationType]);
  // Opened from the monitor, Back returns to the monitor's entry (its list, pages and position)
  // instead of adding one: the phone's Back then leaves the monitor as expected. Otherwise (an
  // address opened directly, a new tab) the link opens the monitor as it was left (§2).
  const fromMonitor = cameFromMonitor(location.state);

  return (
    <section className="page">
      <Link
        to="/status-monitor"
        onClick={(event) => {
          if (!fromMonitor || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
          event.preventDefault();
          void navigate(-1);
        }}
      >
        {t('tracking.backToMonitor')}
      </Link>
      <h1 className="page-title">{t('tracking.serviceOrder', { id: order?.serviceOrder ?? orderId })}</h1>
      {/* Shown from the monitor's list: the age is that page's, which may be days old. */}
      {listed ? <OfflineBanner savedAt={listed.savedAt} /> : (details.isOfflineCopy || !online) && !gone && <OfflineBanner savedAt={details.savedAt} />}
      {details.isPending && <Spinner label={t('loading.listingItems')} />}
      {listed && (
        <p className="notice" role="status">
          {t('tracking.orderFromList')}
        </p>
      )}
      {details.error &&
        !listed &&
        !(nothingSaved && fromList.isPending) &&
        (details.error instanceof NothingSavedError ? (
          <p className="form-error" role="alert">
            {t('tracking.orderNotOnDevice')}
          </p>
        ) : (
          <LoadError error={details.error} notFound={t('tracking.orderNotFound')} />
        ))}
      {order && (
        <>
          <dl className="order-facts">
            <div>
              <dt>{t('tracking.field.equipmentCode')}</dt>
              <dd>{order.equipmentCode ?? '—'}</dd>
            </div>
            <div>
              <dt>{t('tracking.field.equipmentDescription')}</dt>
              <dd>{order.equipmentDescription ?? '—'}</dd>
            </div>
            <div>
              <dt>{t('tracking.field.destination')}</dt>
              <dd>{order.destination ?? '—'}</dd>
            </div>
            <div>
              <dt>{t('tracking.field.plant')}</dt>
              <dd>
                {order.plant}
                {order.workCenter && ` · ${order.workCenter}`}
              </dd>
            </div>
          </dl>
          {order.items.map((item) => (
            <ItemPanel key={item.id} item={item} serviceOrder={order.serviceOrder} now={now} />
          ))}
        </>
      )}
    </section>
  );
}
