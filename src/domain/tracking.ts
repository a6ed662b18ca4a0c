/**
 * §4 tracking rules shared by the server (filters, counts) and the browser (screens):
 * the stage of an order item, the order-level summary, the three icon states, and what
 * "arrived" means for the status filter. Pure functions; `now` is always a parameter.
 */
import type { DELIVERY_STATUSES } from './constants';

export const TRACKING_STAGES = [
  'ServiceOrder',
  'ReservationItem',
  'PurchaseOrderItem',
  'PurchaseOrderConfirmationItem',
  'PurchaseOrderGoodsReceiptItem',
  'SalesOrderItem',
  'SalesOrderScheduleLineItem',
  'DeliveryOrderItem',
  'Unknown',
] as const;
export type TrackingStage = (typeof TRACKING_STAGES)[number];

/** The 8 document stages a timeline walks through (Unknown is not a step). */
export const DOCUMENT_STAGES = TRACKING_STAGES.filter((stage) => stage !== 'Unknown') as Exclude<TrackingStage, 'Unknown'>[];

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERED: DeliveryStatus = 'Delivered';

/** §4 list filter. */
export const TRACKING_FILTERS = ['all', 'arrived', 'incoming'] as const;
export type TrackingFilter = (typeof TRACKING_FILTERS)[number];

/** §4 / §9: grey location and delivery icons while a goods receipt is younger than 5 days. */
export const RECENT_RECEIPT_DAYS = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

export const ICON_STATES = ['green', 'yellow', 'grey', 'red', 'missing'] as const;
export type IconState = (typeof ICON_STATES)[number];

type Text = string | null | undefined;
type Quantity = number | string | null | undefined;

/** The document fields the stage rules read (§3 item fields plus the order's service order). */
export interface StageFields {
  serviceOrder?: Text;
  reservationDocNumber?: Text;
  purchaseOrderDocNumber?: Text;
  purchaseOrderConfirmationCategory?: Text;
  purchaseOrderGoodsReceiptQuantity?: Quantity;
  salesOrderDocNumber?: Text;
  salesOrderScheduleLineQuantity?: Quantity;
  deliveryOrderDocNumber?: Text;
}

const hasText = (value: Text): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * A quantity is "present" when it is a positive number: ERP exports send 0 (or nothing) for a
 * document that does not exist yet, so a 0 goods-receipt quantity is no goods receipt.
 */
export function hasQuantity(value: Quantity): boolean {
  if (value === null || value === undefined || value === '') return false;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) && number > 0;
}

/** §4: the 9 rules, checked in this order; the first that holds names the stage. */
export function trackingStage(item: StageFields): TrackingStage {
  const reservation = hasText(item.reservationDocNumber);
  const purchaseOrder = hasText(item.purchaseOrderDocNumber);
  const confirmation = hasText(item.purchaseOrderConfirmationCategory);
  const goodsReceipt = hasQuantity(item.purchaseOrderGoodsReceiptQuantity);
  const salesOrder = hasText(item.salesOrderDocNumber);
  const scheduleLine = hasQuantity(item.salesOrderScheduleLineQuantity);
  const deliveryOrder = hasText(item.deliveryOrderDocNumber);
  const anyDocument = reservation || purchaseOrder || confirmation || goodsReceipt || salesOrder || scheduleLine || deliveryOrder;

  if (hasText(item.serviceOrder) && !anyDocument) return 'ServiceOrder';
  if (reservation && !purchaseOrder && !confirmation && !goodsReceipt && !salesOrder && !scheduleLine && !deliveryOrder) return 'ReservationItem';
  if (purchaseOrder && !confirmation && !goodsReceipt && !salesOrder && !scheduleLine && !deliveryOrder) return 'PurchaseOrderItem';
  if (confirmation && !deliveryOrder && !scheduleLine) return 'PurchaseOrderConfirmationItem';
  if (goodsReceipt && !scheduleLine && !deliveryOrder) return 'PurchaseOrderGoodsReceiptItem';
  if (salesOrder && !scheduleLine && !deliveryOrder) return 'SalesOrderItem';
  if (scheduleLine && !deliveryOrder) return 'SalesOrderScheduleLineItem';
  if (deliveryOrder) return 'DeliveryOrderItem';
  return 'Unknown';
}

/** What the icon and filter rules read of an item. */
export interface DeliveryFields extends StageFields {
  deliveryStatus?: Text;
  trackingNumber?: Text;
  deliveryDate?: Text;
  eta?: Text;
  /** When the goods receipt was posted (ISO instant); not a §3 field but needed by the 5-day rule. */
  goodsReceiptPostedAt?: Text;
}

export function hasGoodsReceipt(item: DeliveryFields): boolean {
  return hasText(item.goodsReceiptPostedAt) || hasQuantity(item.purchaseOrderGoodsReceiptQuantity);
}

/**
 * §4 filter: arrived = the carrier delivered it or a goods receipt is posted; all else is incoming.
 * SQL twin: item_is_arrived (migration 0015, docs/decisions/0022), held equal by tests/server/rule-twins.test.ts.
 */
export function isArrived(item: DeliveryFields): boolean {
  return item.deliveryStatus === DELIVERED || hasGoodsReceipt(item);
}

/** §4 action point: the parcel waits at an access point, the mechanic has to pick it up. */
export const ACTION_POINT_STATUSES: readonly string[] = ['ToBePickedUp', 'At access point'];
export function isActionPoint(item: Pick<DeliveryFields, 'deliveryStatus'>): boolean {
  return typeof item.deliveryStatus === 'string' && ACTION_POINT_STATUSES.includes(item.deliveryStatus);
}

/** A goods receipt posted less than 5 days before `now`. */
export function isRecentGoodsReceipt(item: DeliveryFields, now: Date): boolean {
  if (!hasText(item.goodsReceiptPostedAt)) return false;
  const posted = Date.parse(item.goodsReceiptPostedAt as string);
  if (Number.isNaN(posted)) return false;
  return now.getTime() - posted < RECENT_RECEIPT_DAYS * DAY_MS;
}

/** "LA" is the ERP's shipping-notification confirmation category (an "AB" is an order acknowledgement). */
export const SHIPPING_NOTIFICATION_CATEGORY = 'LA';

/** §4 confirmation icon: yellow = a purchase order without confirmation, green = confirmed, missing = no purchase order. */
export function confirmationIcon(item: DeliveryFields): IconState {
  if (hasText(item.purchaseOrderConfirmationCategory)) return 'green';
  if (hasText(item.purchaseOrderDocNumber)) return 'yellow';
  return 'missing';
}

/**
 * §4 location icon: green = the carrier delivered it or a goods receipt is posted; grey = a goods
 * receipt younger than 5 days without tracking, or a shipping notification without goods receipt.
 */
export function locationIcon(item: DeliveryFields, now: Date): IconState {
  if (item.deliveryStatus === DELIVERED) return 'green';
  if (isRecentGoodsReceipt(item, now) && !hasText(item.trackingNumber)) return 'grey';
  if (hasGoodsReceipt(item)) return 'green';
  if (item.purchaseOrderConfirmationCategory === SHIPPING_NOTIFICATION_CATEGORY) return 'grey';
  return 'missing';
}

/**
 * Delivery icon (§3 names the five values; §9 the grey rule). green = delivered; red = the
 * delivery failed; yellow = the parcel is moving or waits at an access point; grey = a goods
 * receipt younger than 5 days, or a delivery order not dispatched yet; missing = nothing shipped.
 */
export function deliveryIcon(item: DeliveryFields, now: Date): IconState {
  switch (item.deliveryStatus) {
    case 'Delivered':
      return 'green';
    case 'Delivery Failed':
      return 'red';
    case 'OnTheWay':
    case 'ToBePickedUp':
    case 'At access point':
      return 'yellow';
  }
  if (isRecentGoodsReceipt(item, now)) return 'grey';
  if (hasText(item.deliveryOrderDocNumber)) return 'grey';
  return 'missing';
}

export interface ItemIcons {
  confirmation: IconState;
  delivery: IconState;
  location: IconState;
}

export function itemIcons(item: DeliveryFields, now: Date): ItemIcons {
  return { confirmation: confirmationIcon(item), delivery: deliveryIcon(item, now), location: locationIcon(item, now) };
}

export interface OrderSummary {
  /** Index of the item the summary is taken from. */
  itemIndex: number;
  /** 'eta' when the date is an expected arrival, 'deliveryDate' when it is the delivery date. */
  kind: 'eta' | 'deliveryDate';
  date: string;
  deliveryStatus: string | null;
}

/**
 * §4 order-level summary: the first item with a delivery date or an ETA. Its date reads as an ETA
 * when the item is not delivered and an ETA exists; otherwise it is the delivery date.
 */
export function orderSummary(items: readonly DeliveryFields[]): OrderSummary | null {
  const itemIndex = items.findIndex((item) => hasText(item.deliveryDate) || hasText(item.eta));
  if (itemIndex < 0) return null;
  const item = items[itemIndex]!;
  const deliveryStatus = hasText(item.deliveryStatus) ? (item.deliveryStatus as string) : null;
  if (deliveryStatus !== DELIVERED && hasText(item.eta)) {
    return { itemIndex, kind: 'eta', date: item.eta as string, deliveryStatus };
  }
  return { itemIndex, kind: 'deliveryDate', date: (hasText(item.deliveryDate) ? item.deliveryDate : item.eta) as string, deliveryStatus };
}

/**
 * Honest state of an item before and after shipping, for the screens: never "invalid tracking
 * number" for a parcel the carrier has not seen yet.
 */
export type ShippingState = 'notOrdered' | 'inProcurement' | 'waitingForDispatch' | 'shipped' | 'delivered' | 'failed' | 'received';

export function shippingState(item: DeliveryFields): ShippingState {
  if (item.deliveryStatus === DELIVERED) return 'delivered';
  if (item.deliveryStatus === 'Delivery Failed') return 'failed';
  if (hasText(item.deliveryStatus)) return 'shipped';
  if (hasText(item.deliveryOrderDocNumber)) return 'waitingForDispatch';
  if (hasGoodsReceipt(item)) return 'received';
  const stage = trackingStage(item);
  return stage === 'ServiceOrder' || stage === 'Unknown' ? 'notOrdered' : 'inProcurement';
}
