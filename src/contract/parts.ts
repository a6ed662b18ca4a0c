/** Parts service (§7 /parts/v1): tracking status pages, one order's details, important messages. */
import { z } from 'zod';
import { ICON_STATES, TRACKING_FILTERS, TRACKING_STAGES } from '../domain/tracking';
import { afterParam, countsCapped, nextCursor, pageEnvelope, requiredEnum, requiredMaxResultsParam, requiredPageParam } from './common';

/** §5: the tracking list requires query, page, status, myOrders, maxResults (decision 0024: a missing one is a 400 naming it). */
export const trackingStatusQuery = z.object({
  query: z.string({ error: (issue) => (issue.input === undefined ? 'query is required (query= for no search)' : 'query must be text') }).max(500, 'query must be 500 characters or less'),
  page: requiredPageParam,
  status: requiredEnum('status', TRACKING_FILTERS, 'status must be all, arrived or incoming'),
  myOrders: requiredEnum('myOrders', ['true', 'false'], 'myOrders must be true or false').transform((value) => value === 'true'),
  maxResults: requiredMaxResultsParam(100),
  after: afterParam,
});
export type TrackingStatusQuery = z.input<typeof trackingStatusQuery>;
/** Parameters as the browser sends them (strings for the booleans, §7). */
export interface TrackingStatusParams {
  query: string;
  page: number;
  status: (typeof TRACKING_FILTERS)[number];
  myOrders: boolean;
  maxResults: number;
  /** The next_cursor of the page before (docs/decisions/0035). */
  after?: string;
}

const iconState = z.enum(ICON_STATES);

export const itemIcons = z
  .object({ confirmation: iconState, delivery: iconState, location: iconState })
  .meta({ id: 'TrackingIcons', description: 'Confirmation, delivery and location icon states (§4).' });

const quantity = z.number().nullable();

/** §3 order item: every field, plus its id, line, goods-receipt time and the derived stage and icons. */
export const trackingItem = z
  .object({
    id: z.number().int(),
    lineNumber: z.number().int(),
    materialCode: z.string(),
    materialDescription: z.string(),
    unit: z.string(),
    deliveryDate: z.string().nullable(),
    eta: z.string().nullable(),
    deliveryStatus: z.string().nullable(),
    deliveryType: z.string().nullable(),
    deliveryAddress: z.string().nullable(),
    storageLocation: z.string().nullable(),
    addressCode: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    transportDetails: z.record(z.string(), z.unknown()).nullable().meta({ description: 'Carrier details as JSON: carrier, trackingUrl, events.' }),
    smsTimestamps: z.array(z.string()).nullable().meta({ description: 'When pickup SMS messages were sent (ISO instants).' }),
    reservationDocNumber: z.string().nullable(),
    reservationQuantity: quantity,
    pending: quantity,
    purchaseOrderDocNumber: z.string().nullable(),
    purchaseOrder: z.string().nullable(),
    purchaseOrderQuantity: quantity,
    purchaseOrderConfirmationCategory: z.string().nullable(),
    purchaseOrderConfirmationQuantity: quantity,
    purchaseOrderGoodsReceiptQuantity: quantity,
    goodsReceiptPostedAt: z.string().nullable(),
    salesOrderDocNumber: z.string().nullable(),
    salesOrderDocNumberAtPO: z.string().nullable(),
    salesOrderScheduleLineQuantity: quantity,
    salesOrderQuantity: quantity,
    deliveryOrderDocNumber: z.string().nullable(),
    deliveryQuantity: quantity,
    mainAssetNumber: z.string().nullable(),
    network: z.string().nullable(),
    costCenter: z.string().nullable(),
    actionPoint: z.string().nullable(),
    notification: z.string().nullable(),
    stage: z.enum(TRACKING_STAGES),
    icons: itemIcons,
  })
  .meta({ id: 'TrackingItem' });
export type TrackingItem = z.infer<typeof trackingItem>;

export const orderSummary = z
  .object({
    itemIndex: z.number().int(),
    kind: z.enum(['eta', 'deliveryDate']),
    date: z.string(),
    deliveryStatus: z.string().nullable(),
  })
  .meta({ id: 'TrackingSummary', description: '§4: the first item with a delivery date or ETA.' });

/** §3 tracking status order row. In a list, `items` are the order's items that match the filter. */
export const trackingRow = z
  .object({
    orderId: z.string(),
    serviceOrder: z.string().nullable(),
    equipmentCode: z.string().nullable(),
    equipmentDescription: z.string().nullable(),
    destination: z.string().nullable(),
    plant: z.string(),
    workCenter: z.string().nullable(),
    plannerGroup: z.string().nullable(),
    userEmail: z.string().nullable(),
    updatedAt: z.string(),
    summary: orderSummary.nullable(),
    items: z.array(trackingItem),
  })
  .meta({ id: 'TrackingRow' });
export type TrackingRow = z.infer<typeof trackingRow>;

export const trackingStatusResponse = z
  .object({
    ...pageEnvelope,
    trackingStatus: z.array(trackingRow),
    count_action_point: z.number().int().meta({ description: 'Orders with a parcel waiting at an access point.' }),
    count_arrived: z.number().int(),
    count_incoming: z.number().int(),
    count_total: z.number().int(),
    counts_capped: countsCapped(['count_total', 'count_arrived', 'count_incoming', 'count_action_point']).optional(),
    next_cursor: nextCursor,
  })
  .meta({ id: 'TrackingStatusPage' });
export type TrackingStatusPage = z.infer<typeof trackingStatusResponse>;

// ───────────── one order ─────────────

export const orderIdParams = z.object({
  orderId: z.string().trim().min(1, 'orderId is required').max(40, 'orderId must be 40 characters or less'),
});

/** A carrier scan of a parcel (the rows behind transportDetails). */
export const parcelEvent = z
  .object({
    trackingNumber: z.string(),
    carrier: z.string(),
    status: z.string(),
    description: z.string(),
    location: z.string().nullable(),
    occurredAt: z.string(),
  })
  .meta({ id: 'ParcelEvent' });
export type ParcelEvent = z.infer<typeof parcelEvent>;

export const orderDetails = trackingRow
  .extend({
    items: z.array(trackingItem.extend({ parcelEvents: z.array(parcelEvent) })),
  })
  .meta({ id: 'OrderDetails', description: 'One order with all its items and their carrier events.' });
export type OrderDetails = z.infer<typeof orderDetails>;
export type OrderDetailsItem = OrderDetails['items'][number];

// ───────────── important messages ─────────────

export const importantMessagesBody = z
  .object({
    important_messages: z
      .array(z.string().trim().max(500, 'each important message must be 500 characters or less'))
      .max(20, 'at most 20 important messages')
      .refine((messages) => messages.some((message) => message !== ''), 'important_messages must hold at least one message; use DELETE to clear them'),
  })
  .strict()
  .meta({ id: 'ImportantMessages' });
export type ImportantMessagesBody = z.infer<typeof importantMessagesBody>;

export const importantMessagesResponse = z
  .object({ important_messages: z.array(z.string()) })
  .meta({ id: 'ImportantMessagesResult' });
