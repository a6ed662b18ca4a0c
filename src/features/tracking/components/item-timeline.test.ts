import { describe, expect, it } from 'vitest';
import type { OrderDetailsItem } from '../../../contract/parts';
import { carrierOf, itemTimeline } from './item-timeline';

const base = {
  id: 1,
  lineNumber: 10,
  materialCode: 'KM1',
  materialDescription: 'Door roller',
  unit: 'PC',
  transportDetails: null,
  smsTimestamps: null,
  parcelEvents: [],
} as unknown as OrderDetailsItem;
const item = (fields: Partial<OrderDetailsItem>) => ({ ...base, ...fields }) as OrderDetailsItem;

describe('order details timeline', () => {
  it('walks the 8 document stages and marks the current one, skipped ones and the rest', () => {
    const steps = itemTimeline(item({ reservationDocNumber: 'R1', salesOrderDocNumber: 'S1' }), 'SO1', 'en-US');
    expect(steps.map((step) => (step.type === 'stage' ? `${step.stage}:${step.state}` : step.type))).toEqual([
      'ServiceOrder:done',
      'ReservationItem:done',
      'PurchaseOrderItem:skipped',
      'PurchaseOrderConfirmationItem:skipped',
      'PurchaseOrderGoodsReceiptItem:skipped',
      'SalesOrderItem:current',
      'SalesOrderScheduleLineItem:upcoming',
      'DeliveryOrderItem:upcoming',
    ]);
  });

  it('merges carrier events and SMS times after the stages, oldest first', () => {
    const steps = itemTimeline(
      item({
        deliveryOrderDocNumber: 'D1',
        smsTimestamps: ['2026-11-19T10:00:00Z'],
        parcelEvents: [
          { trackingNumber: 'T', carrier: 'Posti', status: 'InfoReceived', description: 'Info', location: null, occurredAt: '2026-11-18T08:00:00Z' },
          { trackingNumber: 'T', carrier: 'Posti', status: 'AtAccessPoint', description: 'Ready', location: 'Kiosk', occurredAt: '2026-11-19T09:00:00Z' },
        ],
      }),
      'SO1',
      'en-US',
    );
    expect(steps.slice(8).map((step) => step.type)).toEqual(['carrier', 'carrier', 'sms']);
    expect(steps[7]).toMatchObject({ stage: 'DeliveryOrderItem', state: 'current', document: 'D1' });
  });

  it('reads events from transportDetails when the carrier rows are missing, ignoring junk', () => {
    const steps = itemTimeline(item({ transportDetails: { events: [{ occurredAt: '2026-11-18T08:00:00Z', description: 'In transit' }, { nonsense: true }, null] } }), null, 'en-US');
    expect(steps.filter((step) => step.type === 'carrier')).toHaveLength(1);
  });

  it('shows the goods receipt and schedule line quantities in the user\'s number format', () => {
    const quantities = (language: string) =>
      itemTimeline(item({ unit: 'M', purchaseOrderGoodsReceiptQuantity: 2.5, salesOrderScheduleLineQuantity: 1250.75 }), null, language).flatMap((step) =>
        step.type === 'stage' && (step.stage === 'PurchaseOrderGoodsReceiptItem' || step.stage === 'SalesOrderScheduleLineItem') ? [step.document] : [],
      );
    expect(quantities('en-US')).toEqual(['2.5 M', '1,250.75 M']);
    expect(quantities('de-DE')).toEqual(['2,5 M', '1.250,75 M']);
    expect(quantities('fi-FI')).toEqual(['2,5 M', '1\u00a0250,75 M']);
  });

  it('offers only https tracking links', () => {
    expect(carrierOf(item({ transportDetails: { carrier: 'DHL', trackingUrl: 'javascript:alert(1)' } }))).toEqual({ carrier: 'DHL', trackingUrl: null });
    expect(carrierOf(item({ transportDetails: { carrier: 'DHL', trackingUrl: 'https://dhl.example/t' } })).trackingUrl).toBe('https://dhl.example/t');
  });
});
