import type { TFunction } from 'i18next';
import { shippingState, type DeliveryFields } from '../../../domain/tracking';

/** §4 user-facing delivery state: on the way, at access point, delivered, or an honest pre-shipment state. */
export function deliveryLabel(t: TFunction, item: DeliveryFields): string {
  if (item.deliveryStatus) return t(`tracking.deliveryStatus.${item.deliveryStatus}`, { defaultValue: item.deliveryStatus });
  return t(`tracking.shipping.${shippingState(item)}`);
}
