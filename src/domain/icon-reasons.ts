/**
 * #19 item 18: why an item's icons are in their state, in the words of that one item. The §4
 * legend of a state can be a disjunction ("goods received less than 5 days ago without tracking,
 * or a shipping notification without goods receipt"); an item's details say which branch holds,
 * so the explanation never contradicts its timeline. Each reason names the branch of the icon
 * rule in tracking.ts it comes from; a test holds reason and icon state equal.
 */
import {
  confirmationIcon,
  DELIVERED,
  deliveryIcon,
  hasGoodsReceipt,
  isRecentGoodsReceipt,
  locationIcon,
  SHIPPING_NOTIFICATION_CATEGORY,
  type DeliveryFields,
  type IconState,
} from './tracking';

const hasText = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

export type ConfirmationReason = 'shippingNotification' | 'confirmed' | 'notConfirmed' | 'noPurchaseOrder';
export type DeliveryReason = 'delivered' | 'failed' | 'onTheWay' | 'atAccessPoint' | 'recentReceipt' | 'awaitingDispatch' | 'notShipped';
export type LocationReason = 'delivered' | 'recentReceiptNoTracking' | 'receiptPosted' | 'shippingNotification' | 'unknown';

export interface IconReasons {
  confirmation: { state: IconState; reason: ConfirmationReason };
  delivery: { state: IconState; reason: DeliveryReason };
  location: { state: IconState; reason: LocationReason };
}

function confirmationReason(item: DeliveryFields): ConfirmationReason {
  if (item.purchaseOrderConfirmationCategory === SHIPPING_NOTIFICATION_CATEGORY) return 'shippingNotification';
  if (hasText(item.purchaseOrderConfirmationCategory)) return 'confirmed';
  if (hasText(item.purchaseOrderDocNumber)) return 'notConfirmed';
  return 'noPurchaseOrder';
}

function deliveryReason(item: DeliveryFields, now: Date): DeliveryReason {
  switch (item.deliveryStatus) {
    case DELIVERED:
      return 'delivered';
    case 'Delivery Failed':
      return 'failed';
    case 'OnTheWay':
      return 'onTheWay';
    case 'ToBePickedUp':
    case 'At access point':
      return 'atAccessPoint';
  }
  if (isRecentGoodsReceipt(item, now)) return 'recentReceipt';
  if (hasText(item.deliveryOrderDocNumber)) return 'awaitingDispatch';
  return 'notShipped';
}

function locationReason(item: DeliveryFields, now: Date): LocationReason {
  if (item.deliveryStatus === DELIVERED) return 'delivered';
  if (isRecentGoodsReceipt(item, now) && !hasText(item.trackingNumber)) return 'recentReceiptNoTracking';
  if (hasGoodsReceipt(item)) return 'receiptPosted';
  if (item.purchaseOrderConfirmationCategory === SHIPPING_NOTIFICATION_CATEGORY) return 'shippingNotification';
  return 'unknown';
}

export function iconReasons(item: DeliveryFields, now: Date): IconReasons {
  return {
    confirmation: { state: confirmationIcon(item), reason: confirmationReason(item) },
    delivery: { state: deliveryIcon(item, now), reason: deliveryReason(item, now) },
    location: { state: locationIcon(item, now), reason: locationReason(item, now) },
  };
}
