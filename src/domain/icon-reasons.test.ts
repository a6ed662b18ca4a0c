import { describe, expect, it } from 'vitest';
import { iconReasons, type IconReasons } from './icon-reasons';
import type { DeliveryFields, IconState } from './tracking';

const now = new Date('2026-11-24T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

/** Every reason belongs to exactly one icon state. */
const STATE_OF: { [K in keyof IconReasons]: Record<IconReasons[K]['reason'], IconState> } = {
  confirmation: { shippingNotification: 'green', confirmed: 'green', notConfirmed: 'yellow', noPurchaseOrder: 'missing' },
  delivery: { delivered: 'green', failed: 'red', onTheWay: 'yellow', atAccessPoint: 'yellow', recentReceipt: 'grey', awaitingDispatch: 'grey', notShipped: 'missing' },
  location: { delivered: 'green', recentReceiptNoTracking: 'grey', receiptPosted: 'green', shippingNotification: 'grey', unknown: 'missing' },
};

/** All combinations of the fields the rules read. */
function* items(): Generator<DeliveryFields> {
  for (const purchaseOrderDocNumber of [null, '4500100001'])
    for (const purchaseOrderConfirmationCategory of [null, 'AB', 'LA'])
      for (const goodsReceiptPostedAt of [null, daysAgo(2), daysAgo(9)])
        for (const deliveryOrderDocNumber of [null, '80001'])
          for (const trackingNumber of [null, 'JJFI1'])
            for (const deliveryStatus of [null, 'Delivered', 'Delivery Failed', 'OnTheWay', 'ToBePickedUp', 'At access point'])
              yield { purchaseOrderDocNumber, purchaseOrderConfirmationCategory, goodsReceiptPostedAt, deliveryOrderDocNumber, trackingNumber, deliveryStatus };
}

describe('icon reasons (#19 item 18)', () => {
  it('name a branch of the icon rule that gives the same state, for every combination', () => {
    let checked = 0;
    for (const item of items()) {
      const reasons = iconReasons(item, now);
      for (const kind of ['confirmation', 'delivery', 'location'] as const) {
        const { state, reason } = reasons[kind];
        expect((STATE_OF[kind] as Record<string, IconState>)[reason], `${kind} ${reason} ${JSON.stringify(item)}`).toBe(state);
      }
      checked += 1;
    }
    expect(checked).toBe(2 * 3 * 3 * 2 * 2 * 6);
  });

  it('says "shipping notification, not received" for a grey location without goods receipt (not "received less than 5 days ago")', () => {
    const reasons = iconReasons({ purchaseOrderDocNumber: '4500100001', purchaseOrderConfirmationCategory: 'LA' }, now);
    expect(reasons.location).toEqual({ state: 'grey', reason: 'shippingNotification' });
    expect(reasons.confirmation.reason).toBe('shippingNotification');
  });

  it('says "received less than 5 days ago without tracking" only when that receipt exists', () => {
    expect(iconReasons({ goodsReceiptPostedAt: daysAgo(1) }, now).location.reason).toBe('recentReceiptNoTracking');
    expect(iconReasons({ goodsReceiptPostedAt: daysAgo(1), trackingNumber: 'JJFI1' }, now).location.reason).toBe('receiptPosted');
  });
});
