/** Parts service (§7 /parts/v1): tracking status pages, one order's details, important messages. */
import { z } from './zod';
import { ICON_STATES, TRACKING_FILTERS, TRACKING_STAGES } from '../domain/tracking';
import { afterParam, countsCapped, nextCursor, pageEnvelope, requiredEnum, requiredMaxResultsParam, requiredPageParam } from './common';

/** §5: the tracking list requires query, page, status, myOrders, maxResults (decision 0024: a missing one is a 400 naming it). */
export const trackingStatusQuery = z.object({
  query: z.string({ error: (issue) => (issue.input === undefined ? 'query is required (query= for no search)' : 'query must be text') }).check(z.maxLength(500, 'query must be 500 characters or less')),
  page: requiredPageParam,
  status: requiredEnum('status', TRACKING_FILTERS, 'status must be all, arrived or incoming'),
  myOrders: z.pipe(
    requiredEnum('myOrders', ['true', 'false'], 'myOrders must be true or false'),
    z.transform((value: 'true' | 'false') => value === 'true'),
  ),
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
  .register(z.globalRegistry, { id: 'TrackingIcons', description: 'Confirmation, delivery and location icon states (§4).' });

const quantity = z.nullable(z.number());

/** §3 order item: every field, plus its id, line, goods-receipt time and the derived stage and icons. */
export const trackingItem = z
  .object({
    id: z.int(),
    lineNumber: z.int(),
    materialCode: z.string(),
    materialDescription: z.string(),
    unit: z.string(),
    deliveryDate: z.nullable(z.string()),
    eta: z.nullable(z.string()),
    deliveryStatus: z.nullable(z.string()),
    deliveryType: z.nullable(z.string()),
    deliveryAddress: z.nullable(z.string()),
    storageLocation: z.nullable(z.string()),
    addressCode: z.nullable(z.string()),
    trackingNumber: z.nullable(z.string()),
    transportDetails: z.nullable(z.record(z.string(), z.unknown())).register(z.globalRegistry, { description: 'Carrier details as JSON: carrier, trackingUrl, events.' }),
    smsTimestamps: z.nullable(z.array(z.string())).register(z.globalRegistry, { description: 'When pickup SMS messages were sent (ISO instants).' }),
    reservationDocNumber: z.nullable(z.string()),
    reservationQuantity: quantity,
    pending: quantity,
    purchaseOrderDocNumber: z.nullable(z.string()),
    purchaseOrder: z.nullable(z.string()),
    purchaseOrderQuantity: quantity,
    purchaseOrderConfirmationCategory: z.nullable(z.string()),
    purchaseOrderConfirmationQuantity: quantity,
    purchaseOrderGoodsReceiptQuantity: quantity,
    goodsReceiptPostedAt: z.nullable(z.string()),
    salesOrderDocNumber: z.nullable(z.string()),
    salesOrderDocNumberAtPO: z.nullable(z.string()),
    salesOrderScheduleLineQuantity: quantity,
    salesOrderQuantity: quantity,
    deliveryOrderDocNumber: z.nullable(z.string()),
    deliveryQuantity: quantity,
    mainAssetNumber: z.nullable(z.string()),
    network: z.nullable(z.string()),
    costCenter: z.nullable(z.string()),
    actionPoint: z.nullable(z.string()),
    notification: z.nullable(z.string()),
    stage: z.enum(TRACKING_STAGES),
    icons: itemIcons,
  })
  .register(z.globalRegistry, { id: 'TrackingItem' });
export type TrackingItem = z.infer<typeof trackingItem>;

export const orderSummary = z
  .object({
    itemIndex: z.int(),
    kind: z.enum(['eta', 'deliveryDate']),
    date: z.string(),
    deliveryStatus: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'TrackingSummary', description: '§4: the first item with a delivery date or ETA.' });

/** §3 tracking status order row. In a list, `items` are the order's items that match the filter. */
export const trackingRow = z
  .object({
    orderId: z.string(),
    serviceOrder: z.nullable(z.string()),
    equipmentCode: z.nullable(z.string()),
    equipmentDescription: z.nullable(z.string()),
    destination: z.nullable(z.string()),
    plant: z.string(),
    workCenter: z.nullable(z.string()),
    plannerGroup: z.nullable(z.string()),
    userEmail: z.nullable(z.string()),
    updatedAt: z.string(),
    summary: z.nullable(orderSummary),
    items: z.array(trackingItem),
  })
  .register(z.globalRegistry, { id: 'TrackingRow' });
export type TrackingRow = z.infer<typeof trackingRow>;

export const trackingStatusResponse = z
  .object({
    ...pageEnvelope,
    trackingStatus: z.array(trackingRow),
    count_action_point: z.int().register(z.globalRegistry, { description: 'Orders with a parcel waiting at an access point.' }),
    count_arrived: z.int(),
    count_incoming: z.int(),
    count_total: z.int(),
    counts_capped: z.optional(countsCapped(['count_total', 'count_arrived', 'count_incoming', 'count_action_point'])),
    next_cursor: nextCursor,
  })
  .register(z.globalRegistry, { id: 'TrackingStatusPage' });
export type TrackingStatusPage = z.infer<typeof trackingStatusResponse>;

// ───────────── one order ─────────────

export const orderIdParams = z.object({
  orderId: z.string().check(z.trim(), z.minLength(1, 'orderId is required'), z.maxLength(40, 'orderId must be 40 characters or less')),
});

/** A carrier scan of a parcel (the rows behind transportDetails). */
export const parcelEvent = z
  .object({
    trackingNumber: z.string(),
    carrier: z.string(),
    status: z.string(),
    description: z.string(),
    location: z.nullable(z.string()),
    occurredAt: z.string(),
  })
  .register(z.globalRegistry, { id: 'ParcelEvent' });
export type ParcelEvent = z.infer<typeof parcelEvent>;

export const orderDetails = z
  .extend(trackingRow, {
    items: z.array(z.extend(trackingItem, { parcelEvents: z.array(parcelEvent) })),
  })
  .register(z.globalRegistry, { id: 'OrderDetails', description: 'One order with all its items and their carrier events.' });
export type OrderDetails = z.infer<typeof orderDetails>;
export type OrderDetailsItem = OrderDetails['items'][number];

// ───────────── important messages ─────────────

export const importantMessagesBody = z
  .strictObject({
    important_messages: z
      .array(z.string().check(z.trim(), z.maxLength(500, 'each important message must be 500 characters or less')))
      .check(z.maxLength(20, 'at most 20 important messages')),
    /**
     * The list the editor started from (as the server gave it): a list stored since that is
     * another one is a 409 (code importantMessagesChangedMeanwhile) instead of one super manager's
     * save silently undoing another's. Optional: callers without it replace the list as before.
     */
    expected: z.optional(
      z
        .array(z.string().check(z.trim(), z.maxLength(500, 'each expected message must be 500 characters or less')))
        .check(z.maxLength(20, 'expected holds at most 20 messages')),
    ),
  })
  .check(
    // An empty list clears only as a save that names the list it started from (the screen's Clear):
    // the messages another super manager added meanwhile are refused, not wiped. Without it, DELETE.
    z.refine((body) => body.expected !== undefined || body.important_messages.some((message) => message !== ''), {
      message: 'important_messages must hold at least one message; use DELETE to clear them (or name the list cleared in expected)',
      path: ['important_messages'],
    }),
  )
  .register(z.globalRegistry, { id: 'ImportantMessages' });
export type ImportantMessagesBody = z.infer<typeof importantMessagesBody>;

export const importantMessagesResponse = z
  .object({ important_messages: z.array(z.string()) })
  .register(z.globalRegistry, { id: 'ImportantMessagesResult' });
