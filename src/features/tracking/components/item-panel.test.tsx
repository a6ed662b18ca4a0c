/** The order details' item facts: the date line and the place line from what the item has (§3, §4). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetailsItem } from '../../../contract/parts';
import { ItemPanel } from './item-panel';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const base = {
  id: 1,
  lineNumber: 10,
  materialCode: 'KM1',
  materialDescription: 'Door roller',
  unit: 'PC',
  deliveryDate: null,
  eta: null,
  deliveryStatus: null,
  deliveryType: 'Warehouse',
  deliveryAddress: null,
  addressCode: null,
  trackingNumber: null,
  transportDetails: null,
  smsTimestamps: null,
  stage: 'ServiceOrder',
  icons: [],
  parcelEvents: [],
} as unknown as OrderDetailsItem;

/** The text of each fact, by its label. */
function facts(fields: Partial<OrderDetailsItem>): Record<string, string> {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <ItemPanel item={{ ...base, ...fields } as OrderDetailsItem} serviceOrder="4001" now={new Date('2026-11-30T10:00:00Z')} />
    </MemoryRouter>,
  );
  const list = /<dl class="item-facts">([\s\S]*?)<\/dl>/.exec(html)![1]!;
  const text = (part: string) => part.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'").replace(/\s+/g, ' ').trim();
  return Object.fromEntries([...list.matchAll(/<dt>([\s\S]*?)<\/dt><dd>([\s\S]*?)<\/dd>/g)].map((m) => [text(m[1]!), text(m[2]!)]));
}

describe('an item on the order details page', () => {
  it('dates it by its ETA, else its delivery date (as its card does), else says there is none', () => {
    expect(facts({ eta: '2026-12-07', deliveryDate: '2026-12-09' }).ETA).toBe('2026-12-07');
    expect(facts({ deliveryDate: '2026-12-09' }).ETA).toBe('Delivery date 2026-12-09');
    expect(facts({}).ETA).toBe('No ETA date yet');
  });

  it('says a delivered item was delivered, with its date when it has one (never "Invalid Date")', () => {
    expect(facts({ deliveryStatus: 'Delivered', deliveryDate: '2026-11-28' }).ETA).toBe('Delivered 2026-11-28');
    expect(facts({ deliveryStatus: 'Delivered' }).ETA).toBe('Delivered');
  });

  it('names the place by its address and code, by its code alone, or says there is no address code', () => {
    expect(facts({ deliveryAddress: 'Asemakuja 2, Vantaa', addressCode: 'FI-AP-10488' })['Delivery address']).toBe('Asemakuja 2, Vantaa (FI-AP-10488)');
    expect(facts({ addressCode: 'FI-AP-10488' })['Delivery address']).toBe('FI-AP-10488');
    expect(facts({})['Delivery address']).toBe('No address code');
  });
});

describe("an item's fields", () => {
  it("show its quantities in the user's number format", async () => {
    const german = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
    i18next.addResourceBundle('de-DE', 'translation', german);
    const fields = () =>
      /<details class="item-fields">([\s\S]*?)<\/details>/.exec(
        renderToStaticMarkup(
          <MemoryRouter>
            <ItemPanel item={{ ...base, reservationQuantity: 2.5, deliveryQuantity: 1250.75 } as OrderDetailsItem} serviceOrder="4001" now={new Date('2026-11-30T10:00:00Z')} />
          </MemoryRouter>,
        ),
      )![1]!;
    try {
      await i18next.changeLanguage('de-DE');
      expect(fields()).toContain('<dd>2,5</dd>');
      expect(fields()).toContain('<dd>1.250,75</dd>');
    } finally {
      await i18next.changeLanguage('en-US');
    }
    expect(fields()).toContain('<dd>2.5</dd>');
    expect(fields()).toContain('<dd>1,250.75</dd>');
  });
});
