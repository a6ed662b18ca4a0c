/**
 * One item's timeline (order details): the 8 document stages of §4 in their order, then what
 * happened to the parcel — carrier scans (parcel_events, or transportDetails.events when the
 * carrier rows are not there) and pickup SMS messages — oldest first. Pure: easy to test.
 */
import type { OrderDetailsItem } from '../../../contract/parts';
import { formatQuantity } from '../../../domain/quantity';
import { DOCUMENT_STAGES, hasQuantity, TRACKING_STAGES, trackingStage } from '../../../domain/tracking';

export type StageStep = {
  type: 'stage';
  stage: (typeof DOCUMENT_STAGES)[number];
  /** done: its document exists; current: the item's stage; skipped: passed by without it; upcoming. */
  state: 'done' | 'current' | 'skipped' | 'upcoming';
  document: string | null;
  at: string | null;
};
export type EventStep =
  | { type: 'carrier'; at: string; status: string; description: string; location: string | null }
  | { type: 'sms'; at: string };
export type TimelineStep = StageStep | EventStep;

/** A stage's quantity in the user's number format ("2,5 M" in German), as the item's fields show it. */
const quantityOf = (quantity: number | null, unit: string, language: string): string | null =>
  quantity !== null && hasQuantity(quantity) ? `${formatQuantity(quantity, language)} ${unit}` : null;

function stageDocument(item: OrderDetailsItem, serviceOrder: string | null, stage: StageStep['stage'], language: string): string | null {
  switch (stage) {
    case 'ServiceOrder':
      return serviceOrder;
    case 'ReservationItem':
      return item.reservationDocNumber;
    case 'PurchaseOrderItem':
      return item.purchaseOrder ?? item.purchaseOrderDocNumber;
    case 'PurchaseOrderConfirmationItem':
      return item.purchaseOrderConfirmationCategory;
    case 'PurchaseOrderGoodsReceiptItem':
      return quantityOf(item.purchaseOrderGoodsReceiptQuantity, item.unit, language);
    case 'SalesOrderItem':
      return item.salesOrderDocNumber;
    case 'SalesOrderScheduleLineItem':
      return quantityOf(item.salesOrderScheduleLineQuantity, item.unit, language);
    case 'DeliveryOrderItem':
      return item.deliveryOrderDocNumber;
  }
}

interface LooseEvent {
  status?: unknown;
  description?: unknown;
  location?: unknown;
  occurredAt?: unknown;
}

/** Carrier events from the rows, or read defensively from the transportDetails JSON. */
function carrierEvents(item: OrderDetailsItem): EventStep[] {
  if (item.parcelEvents.length > 0) {
    return item.parcelEvents.map((event) => ({ type: 'carrier', at: event.occurredAt, status: event.status, description: event.description, location: event.location }));
  }
  const events = item.transportDetails?.events;
  if (!Array.isArray(events)) return [];
  return (events as LooseEvent[])
    .filter((event) => typeof event?.occurredAt === 'string' && typeof event.description === 'string')
    .map((event) => ({
      type: 'carrier',
      at: event.occurredAt as string,
      status: typeof event.status === 'string' ? event.status : '',
      description: event.description as string,
      location: typeof event.location === 'string' ? event.location : null,
    }));
}

/** `language`: the user's, for the quantities a stage shows as its document. */
export function itemTimeline(item: OrderDetailsItem, serviceOrder: string | null, language: string): TimelineStep[] {
  const current = trackingStage({ ...item, serviceOrder });
  const currentIndex = TRACKING_STAGES.indexOf(current);
  const stages: StageStep[] = DOCUMENT_STAGES.map((stage, index) => {
    const document = stageDocument(item, serviceOrder, stage, language);
    const state = stage === current ? 'current' : document ? 'done' : index < currentIndex ? 'skipped' : 'upcoming';
    return { type: 'stage', stage, state, document, at: stage === 'PurchaseOrderGoodsReceiptItem' ? item.goodsReceiptPostedAt : null };
  });
  const events: EventStep[] = [...carrierEvents(item), ...(item.smsTimestamps ?? []).map((at): EventStep => ({ type: 'sms', at }))];
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return [...stages, ...events];
}

/** Carrier name and tracking link from the transportDetails JSON, when it carries them. */
export function carrierOf(item: OrderDetailsItem): { carrier: string | null; trackingUrl: string | null } {
  const details = item.transportDetails ?? {};
  const url = typeof details.trackingUrl === 'string' && /^https:\/\//.test(details.trackingUrl) ? details.trackingUrl : null;
  return { carrier: typeof details.carrier === 'string' ? details.carrier : (item.parcelEvents[0]?.carrier ?? null), trackingUrl: url };
}
