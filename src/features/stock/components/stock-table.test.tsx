/**
 * A stock row, on a phone and on a desktop: its Transfer button's name starts with the word it
 * shows (WCAG 2.5.3) and says which row's; a blind count's reason is visible text the chip points
 * at, not a tooltip; "Reorder" shows for a total at the reorder point, decimals included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { StockItemRow } from '../../../contract/stock';
import { StockTable } from './stock-table';

// Phone or desktop, as a test sets it: no browser to measure here.
const screen = vi.hoisted(() => ({ narrow: false }));
vi.mock('../../../lib/use-media-query', () => ({ useIsNarrow: () => screen.narrow }));

beforeAll(async () => {
  const czech = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'cs-CZ.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'cs-CZ', resources: { 'cs-CZ': { translation: czech } }, interpolation: { escapeValue: false } });
});

const row = (extra: Partial<StockItemRow> = {}): StockItemRow => ({
  id: 7,
  bin: null,
  blocked_count: 0,
  material_code: 'KM100',
  material_description_english: 'Cable',
  unit: 'M',
  planner_groups: [],
  plant: '1000',
  quantity_inspection_count: 0,
  reorder_point: 3.3,
  reorder_quantity: 10,
  restricted_count: 0,
  storage_location: 'V001',
  transfer_count: 0,
  unrestricted_count: 8,
  work_centers: [],
  total_quantity: 8,
  ...extra,
});
const BLIND = row({ unrestricted_count: null, quantity_inspection_count: null, blocked_count: null, restricted_count: null, transfer_count: null, total_quantity: null, blind_count_id: 12 });

const draw = (items: StockItemRow[], narrow: boolean) => {
  screen.narrow = narrow;
  return renderToStaticMarkup(<StockTable items={items} onTransfer={() => undefined} />);
};

describe.each([
  ['on a phone', true],
  ['on a desktop', false],
])('a stock row %s', (_name, narrow) => {
  it('names its Transfer button starting with the word it shows, then the material and where it is', () => {
    const button = /<button[^>]*aria-label="([^"]*)"[^>]*>([^<]*)<\/button>/.exec(draw([row()], narrow));
    const [, name, visible] = button ?? [];
    expect(visible).toBe(i18next.t('stock.transferAction'));
    expect(name).toBe(i18next.t('stock.transferActionFor', { action: visible, code: 'KM100', plant: '1000', location: 'V001' }));
    expect(name!.startsWith(visible!)).toBe(true);
  });

  it('says why a blind count hides the numbers in the row, and the chip points at it', () => {
    const html = draw([BLIND], narrow);
    const why = new RegExp(`<(p|span) id="stock-blind-why-7" class="[^"]*">${i18next.t('stock.hiddenBlindWhy')}</(p|span)>`);
    expect(html).toMatch(why);
    expect(html).toContain(`<span class="chip" aria-describedby="stock-blind-why-7">${i18next.t('stock.hiddenBlind', { id: 12 })}</span>`);
    expect(html).not.toContain('title=');
    expect(draw([row()], narrow)).not.toContain('stock-blind-why');
  });

  it('shows "Reorder" for a total at the reorder point, even one saved with binary noise (1.1 + 2.2)', () => {
    const chip = `<span class="chip warning">${i18next.t('stock.belowRop')}</span>`;
    expect(draw([row({ total_quantity: 3.3000000000000003 })], narrow)).toContain(chip);
    expect(draw([row({ total_quantity: 3.301 })], narrow)).not.toContain(chip);
  });
});
