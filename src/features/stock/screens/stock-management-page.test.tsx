/**
 * The stock screen's tabs follow the WAI-ARIA tabs pattern (one tab in the Tab order, arrow keys
 * move), and the list's answer is said to a screen reader by a status present from the start.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StockPage } from '../../../contract/stock';
import { tabAfterKey } from '../../../components/ui/roving-tabs';
import { PastEndNotice } from '../../../components/ui/past-end-notice';
import { StockResultStatus, StockTabs, TransferRequestsButton } from './stock-management-page';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const page = (total: number, locations: number): StockPage => ({
  page: 1,
  pages: total ? 1 : 0,
  has_next: false,
  has_prev: false,
  total,
  storage_location_count: locations,
  next_cursor: null,
  stock_items: [],
});

describe('the stock tabs', () => {
  it('put only the selected tab in the Tab order, each controlling the panel', () => {
    const html = renderToStaticMarkup(<StockTabs active="my_team_stock" onSelect={() => undefined} />);
    const tabs = [...html.matchAll(/<button[^>]*role="tab"[^>]*>/g)].map((match) => match[0]);
    expect(tabs).toHaveLength(3);
    expect(tabs.map((tab) => /tabindex="(-?\d)"/.exec(tab)?.[1])).toEqual(['-1', '0', '-1']);
    expect(tabs.map((tab) => /aria-selected="(\w+)"/.exec(tab)?.[1])).toEqual(['false', 'true', 'false']);
    expect(tabs.map((tab) => /id="([^"]+)"/.exec(tab)?.[1])).toEqual(['stock-tab-my_stock', 'stock-tab-my_team_stock', 'stock-tab-my_plant_stock']);
    for (const tab of tabs) expect(tab).toContain('aria-controls="stock-panel"');
  });

  it('move with the arrow keys, round the ends, and to the first and last with Home and End', () => {
    expect(tabAfterKey('ArrowRight', 0, 3)).toBe(1);
    expect(tabAfterKey('ArrowRight', 2, 3)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 3)).toBe(2);
    expect(tabAfterKey('ArrowLeft', 2, 3)).toBe(1);
    expect(tabAfterKey('Home', 2, 3)).toBe(0);
    expect(tabAfterKey('End', 0, 3)).toBe(2);
    expect(tabAfterKey('Enter', 1, 3)).toBeNull();
    expect(tabAfterKey('a', 1, 3)).toBeNull();
  });
});

describe('the stock list’s status', () => {
  const status = (data: StockPage | undefined) => renderToStaticMarkup(<StockResultStatus data={data} />);

  it('is present and empty before the answer, so the answer is read when it comes', () => {
    expect(status(undefined)).toBe('<p role="status" class="visually-hidden"></p>');
  });

  it('says how many items the answer holds, or that there are none', () => {
    expect(status(page(12, 3))).toBe('<p role="status" class="visually-hidden">12 items in 3 storage locations</p>');
    expect(status(page(1, 1))).toBe('<p role="status" class="visually-hidden">1 item in 1 storage location</p>');
    expect(status(page(0, 0))).toBe(`<p role="status" class="visually-hidden">${i18next.t('common.noItems')}</p>`);
  });

  it('writes the counts as the user’s language does, not "45213 items"', () => {
    expect(status(page(45213, 1204))).toBe('<p role="status" class="visually-hidden">45,213 items in 1,204 storage locations</p>');
  });

  it('says why My stock is empty for a user with no storage location', () => {
    const html = renderToStaticMarkup(<StockResultStatus data={page(0, 0)} emptyText={i18next.t('stock.noStorageLocation')} />);
    expect(html).toContain('No storage location is attached to your account: ask your stock admin to attach one.');
    expect(html).not.toContain('0 items');
  });
});

describe('the transfer requests button', () => {
  const text = (html: string) => html.replace(/<[^>]+>/g, '').trim();

  it('shows how many wait for the caller’s decision, and names them to a screen reader', () => {
    const html = renderToStaticMarkup(<TransferRequestsButton waiting={{ count: 3, value: '3', atLeast: false }} onOpen={() => undefined} />);
    expect(html).toContain('<span class="transfer-requests-badge" aria-hidden="true">3</span>');
    // The name a screen reader gives it: "Transfer requests 3 waiting" (the badge itself is hidden).
    expect(html).toContain('<span class="visually-hidden"> 3 waiting</span>');
    expect(text(html)).toBe('Transfer requests3 3 waiting');
  });

  it('says a count of a full list is a lower bound', () => {
    const html = renderToStaticMarkup(<TransferRequestsButton waiting={{ count: 100, value: '100', atLeast: true }} onOpen={() => undefined} />);
    expect(html).toContain('aria-hidden="true">100+</span>');
  });

  it('shows no count when none waits (or the caller decides none)', () => {
    expect(renderToStaticMarkup(<TransferRequestsButton waiting={null} onOpen={() => undefined} />)).not.toContain('badge');
  });
});

describe('a stock page past the list’s end', () => {
  const notice = (atLeast: boolean) => renderToStaticMarkup(<PastEndNotice page={60} pages={50} atLeast={atLeast} onFirstPage={() => undefined} />);

  it('tells how many pages the list has', () => {
    expect(notice(false)).toContain(i18next.t('tracking.invalidPage', { page: 60, count: 50 }));
  });

  it('says "at least" where the count stopped at the cap (a search of 1,000+ items)', () => {
    const html = notice(true);
    expect(html).toContain(i18next.t('tracking.invalidPageAtLeast', { page: 60, count: 50 }));
    expect(html).toContain('at least 50 pages');
    expect(html).toContain('role="alert"');
  });
});
