import { describe, expect, it } from 'vitest';
import {
  confirmationIcon,
  deliveryIcon,
  isArrived,
  itemIcons,
  locationIcon,
  orderSummary,
  shippingState,
  trackingStage,
  type DeliveryFields,
  type StageFields,
} from './tracking';

const NOW = new Date('2026-11-20T09:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

describe('§4 tracking stage: the 9 rules in order', () => {
  const table: Array<[string, StageFields, string]> = [
    ['1 service order alone', { serviceOrder: '4001200001' }, 'ServiceOrder'],
    ['2 reservation', { serviceOrder: 'S', reservationDocNumber: '2100001' }, 'ReservationItem'],
    ['3 purchase order', { reservationDocNumber: 'R', purchaseOrderDocNumber: '4500100001' }, 'PurchaseOrderItem'],
    ['4 confirmation', { purchaseOrderDocNumber: 'P', purchaseOrderConfirmationCategory: 'AB' }, 'PurchaseOrderConfirmationItem'],
    ['4 confirmation beats goods receipt and sales order', { purchaseOrderConfirmationCategory: 'AB', purchaseOrderGoodsReceiptQuantity: 2, salesOrderDocNumber: 'S' }, 'PurchaseOrderConfirmationItem'],
    ['5 goods receipt', { purchaseOrderDocNumber: 'P', purchaseOrderGoodsReceiptQuantity: '3' }, 'PurchaseOrderGoodsReceiptItem'],
    ['5 goods receipt beats sales order', { purchaseOrderGoodsReceiptQuantity: 1, salesOrderDocNumber: 'S' }, 'PurchaseOrderGoodsReceiptItem'],
    ['6 sales order', { reservationDocNumber: 'R', salesOrderDocNumber: '1200300001' }, 'SalesOrderItem'],
    ['7 schedule line', { salesOrderDocNumber: 'S', salesOrderScheduleLineQuantity: '2', purchaseOrderConfirmationCategory: 'AB' }, 'SalesOrderScheduleLineItem'],
    ['8 delivery order', { salesOrderDocNumber: 'S', salesOrderScheduleLineQuantity: 2, deliveryOrderDocNumber: '8000400001', purchaseOrderGoodsReceiptQuantity: 2 }, 'DeliveryOrderItem'],
    ['8 delivery order alone', { deliveryOrderDocNumber: '8000400001' }, 'DeliveryOrderItem'],
    ['9 nothing at all', {}, 'Unknown'],
    ['9 blanks and zero quantities are not documents', { serviceOrder: '  ', purchaseOrderGoodsReceiptQuantity: 0, salesOrderScheduleLineQuantity: '0' }, 'Unknown'],
  ];
  it.each(table)('%s', (_name, fields, stage) => {
    expect(trackingStage(fields)).toBe(stage);
  });

  it('a service order with any other document is never the ServiceOrder stage', () => {
    const documents: Array<keyof StageFields> = [
      'reservationDocNumber',
      'purchaseOrderDocNumber',
      'purchaseOrderConfirmationCategory',
      'purchaseOrderGoodsReceiptQuantity',
      'salesOrderDocNumber',
      'salesOrderScheduleLineQuantity',
      'deliveryOrderDocNumber',
    ];
    for (const field of documents) expect(trackingStage({ serviceOrder: 'S', [field]: '1' })).not.toBe('ServiceOrder');
  });

  it('a delivery order always wins, whatever else is there (every combination of the other 7 fields)', () => {
    const others: Array<keyof StageFields> = ['serviceOrder', 'reservationDocNumber', 'purchaseOrderDocNumber', 'purchaseOrderConfirmationCategory', 'purchaseOrderGoodsReceiptQuantity', 'salesOrderDocNumber', 'salesOrderScheduleLineQuantity'];
    for (let mask = 0; mask < 2 ** others.length; mask++) {
      const fields: StageFields = { deliveryOrderDocNumber: 'D' };
      others.forEach((name, bit) => {
        if (mask & (1 << bit)) (fields as Record<string, string>)[name] = '1';
      });
      expect(trackingStage(fields)).toBe('DeliveryOrderItem');
    }
  });
});

describe('§4 order summary', () => {
  it('takes the first item with a delivery date or ETA', () => {
    const items: DeliveryFields[] = [{}, { deliveryDate: '2026-11-25', deliveryStatus: 'Delivered' }, { eta: '2026-11-21' }];
    expect(orderSummary(items)).toEqual({ itemIndex: 1, kind: 'deliveryDate', date: '2026-11-25', deliveryStatus: 'Delivered' });
  });
  it('reads the ETA when the item is not delivered and an ETA exists', () => {
    expect(orderSummary([{ deliveryDate: '2026-11-18', eta: '2026-11-22', deliveryStatus: 'OnTheWay' }])).toEqual({
      itemIndex: 0,
      kind: 'eta',
      date: '2026-11-22',
      deliveryStatus: 'OnTheWay',
    });
  });
  it('keeps the delivery date of a delivered item even with an ETA', () => {
    expect(orderSummary([{ deliveryDate: '2026-11-18', eta: '2026-11-22', deliveryStatus: 'Delivered' }])?.kind).toBe('deliveryDate');
  });
  it('uses the delivery date when there is no ETA', () => {
    expect(orderSummary([{ deliveryDate: '2026-11-18' }])).toMatchObject({ kind: 'deliveryDate', date: '2026-11-18', deliveryStatus: null });
  });
  it('is null when no item has a date', () => {
    expect(orderSummary([{}, { deliveryStatus: 'OnTheWay' }])).toBeNull();
    expect(orderSummary([])).toBeNull();
  });
});

describe('§4 icons', () => {
  it('confirmation: missing without purchase order, yellow unconfirmed, green confirmed', () => {
    expect(confirmationIcon({})).toBe('missing');
    expect(confirmationIcon({ purchaseOrderDocNumber: 'P' })).toBe('yellow');
    expect(confirmationIcon({ purchaseOrderDocNumber: 'P', purchaseOrderConfirmationCategory: 'AB' })).toBe('green');
  });

  it('location: green when delivered or received, grey for a young receipt without tracking or a shipping notification', () => {
    expect(locationIcon({ deliveryStatus: 'Delivered' }, NOW)).toBe('green');
    expect(locationIcon({ purchaseOrderGoodsReceiptQuantity: 2, goodsReceiptPostedAt: daysAgo(2) }, NOW)).toBe('grey');
    expect(locationIcon({ purchaseOrderGoodsReceiptQuantity: 2, goodsReceiptPostedAt: daysAgo(4.99) }, NOW)).toBe('grey');
    expect(locationIcon({ purchaseOrderGoodsReceiptQuantity: 2, goodsReceiptPostedAt: daysAgo(5) }, NOW)).toBe('green');
    expect(locationIcon({ purchaseOrderGoodsReceiptQuantity: 2, goodsReceiptPostedAt: daysAgo(2), trackingNumber: 'JJFI1' }, NOW)).toBe('green');
    expect(locationIcon({ purchaseOrderConfirmationCategory: 'LA' }, NOW)).toBe('grey');
    expect(locationIcon({ purchaseOrderConfirmationCategory: 'AB' }, NOW)).toBe('missing');
    expect(locationIcon({ deliveryStatus: 'OnTheWay', trackingNumber: 'X' }, NOW)).toBe('missing');
  });

  it('the 5-day rule moves with now', () => {
    const item = { purchaseOrderGoodsReceiptQuantity: 1, goodsReceiptPostedAt: '2026-11-18T09:00:00Z' };
    expect(locationIcon(item, new Date('2026-11-20T09:00:00Z'))).toBe('grey');
    expect(locationIcon(item, new Date('2026-11-23T09:00:01Z'))).toBe('green');
    expect(deliveryIcon(item, new Date('2026-11-20T09:00:00Z'))).toBe('grey');
    expect(deliveryIcon(item, new Date('2026-11-23T09:00:01Z'))).toBe('missing');
  });

  it('delivery: green, red, yellow by carrier status, grey waiting for dispatch, missing otherwise', () => {
    expect(deliveryIcon({ deliveryStatus: 'Delivered' }, NOW)).toBe('green');
    expect(deliveryIcon({ deliveryStatus: 'Delivery Failed' }, NOW)).toBe('red');
    for (const status of ['OnTheWay', 'ToBePickedUp', 'At access point']) expect(deliveryIcon({ deliveryStatus: status }, NOW)).toBe('yellow');
    expect(deliveryIcon({ deliveryOrderDocNumber: 'D' }, NOW)).toBe('grey');
    expect(deliveryIcon({ purchaseOrderDocNumber: 'P' }, NOW)).toBe('missing');
    expect(itemIcons({ purchaseOrderDocNumber: 'P' }, NOW)).toEqual({ confirmation: 'yellow', delivery: 'missing', location: 'missing' });
  });
});

describe('§4 arrived and honest shipping states', () => {
  it('arrived = delivered or goods receipt posted', () => {
    expect(isArrived({ deliveryStatus: 'Delivered' })).toBe(true);
    expect(isArrived({ goodsReceiptPostedAt: daysAgo(1) })).toBe(true);
    expect(isArrived({ purchaseOrderGoodsReceiptQuantity: '1' })).toBe(true);
    expect(isArrived({ deliveryStatus: 'At access point' })).toBe(false);
    expect(isArrived({})).toBe(false);
  });
  it('a delivery order without carrier status is waiting for dispatch, never an invalid tracking number', () => {
    expect(shippingState({ deliveryOrderDocNumber: 'D' })).toBe('waitingForDispatch');
    expect(shippingState({ deliveryOrderDocNumber: 'D', trackingNumber: 'T', deliveryStatus: 'OnTheWay' })).toBe('shipped');
    expect(shippingState({ deliveryStatus: 'Delivered' })).toBe('delivered');
    expect(shippingState({ deliveryStatus: 'Delivery Failed' })).toBe('failed');
    expect(shippingState({ purchaseOrderGoodsReceiptQuantity: 1 })).toBe('received');
    expect(shippingState({ purchaseOrderDocNumber: 'P' })).toBe('inProcurement');
    expect(shippingState({ serviceOrder: 'S' })).toBe('notOrdered');
  });
});
