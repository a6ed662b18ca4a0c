import type { TFunction } from 'i18next';
import { shippingState, type DeliveryFields } from '../../../domain/tracking';

/** §4 user-facing delivery state: on the way, at access point, delivered, or an honest pre-shipment state. */
export function deliveryLabel(t: TFunction, item: DeliveryFields): string {
  if (item.deliveryStatus) return t(`tracking.deliveryStatus.${item.deliveryStatus}`, { defaultValue: item.deliveryStatus });
  return t(`tracking.shipping.${shippingState(item)}`);
}

/** The chip's tone for that state: delivered green, failed red, waiting for pickup amber, else neutral. */
export function deliveryTone(item: DeliveryFields): 'completed' | 'error' | 'pickup' | 'neutral' {
  switch (item.deliveryStatus) {
    case 'Delivered':
      return 'completed';
    case 'Delivery Failed':
      return 'error';
    case 'ToBePickedUp':
    case 'At access point':
      return 'pickup';
    default:
      return 'neutral';
  }
}
