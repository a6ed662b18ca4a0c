/** The status monitor's answer for screen readers (one status, always in the page, whose text changes) and its pages. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ResultPage, ResultsStatus } from './result-page';
import { trackingQueries } from '../api/get-tracking-status';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const status = (text: string) => `<p class="visually-hidden" role="status">${text}</p>`;

describe('ResultsStatus', () => {
  it('is in the page, empty, before the answer arrives', () => {
    expect(renderToStaticMarkup(<ResultsStatus count={undefined} />)).toBe(status(''));
  });

  it('says how many results the answer has, or that there are none', () => {
    expect(renderToStaticMarkup(<ResultsStatus count={25} />)).toBe(status(i18next.t('common.resultCount', { count: 25 })));
    expect(renderToStaticMarkup(<ResultsStatus count={0} />)).toBe(status('No items found'));
  });

  it('says a capped count is a lower bound', () => {
    expect(renderToStaticMarkup(<ResultsStatus count={1000} capped />)).toBe(status(i18next.t('common.resultCountAtLeast', { value: '1,000' })));
  });
});

describe('ResultPage', () => {
  const params = { query: '', status: 'all', myOrders: false, maxResults: 20 } as const;
  const row = (index: number) => ({
    orderId: `o${index}`,
    serviceOrder: `40${index}`,
    equipmentCode: null,
    equipmentDescription: null,
    destination: null,
    plant: 'FI01',
    workCenter: null,
    plannerGroup: null,
    userEmail: null,
    updatedAt: '2026-11-30T10:00:00Z',
    summary: null,
    items: [],
  });
  /** A page the device already has (as when coming back to the monitor), drawn as the first render. */
  function render(page: number, rows: number, props: Partial<Parameters<typeof ResultPage>[0]> = {}, envelope: { pages?: number; has_next?: boolean } = {}) {
    const client = new QueryClient();
    const answer = { page, pages: envelope.pages ?? Math.max(page, 2), has_next: envelope.has_next ?? false, has_prev: page > 1, trackingStatus: Array.from({ length: rows }, (_, index) => row(index)), count_action_point: 0, count_arrived: 0, count_incoming: 0, count_total: 1000, counts_capped: ['count_total'] };
    client.setQueryData([...trackingQueries.list({ ...params, page }), 'me@example.com'], { data: answer, savedAt: 0, source: 'network' });
    return renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ResultPage userEmail="me@example.com" params={{ ...params, page }} now={new Date('2026-11-30T10:00:00Z')} isFirst isLast onLoadMore={() => undefined} emptyState={<p>FIRST STEPS</p>} {...props} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  }
  const cards = (html: string) => html.match(/class="order-card"/g)?.length ?? 0;

  it('shows the first steps for an empty page 1 only: an empty later page is no "No orders to track yet"', () => {
    expect(render(1, 0)).toContain('FIRST STEPS');
    expect(render(51, 0)).not.toContain('FIRST STEPS');
    expect(render(51, 0)).toContain('No items found');
  });

  it('names its page for screen readers, "of 50+" while the capped list goes on past it', () => {
    const label = (html: string) => /<section[^>]*aria-label="([^"]*)"/.exec(html)?.[1];
    expect(label(render(3, 5, {}, { pages: 50, has_next: true }))).toBe('Page 3 of 50+');
    // Its last page: the end is known, the count is exact there.
    expect(label(render(57, 5, {}, { pages: 57, has_next: false }))).toBe('Page 57 of 57');
  });

  it('draws the first batch at once, and the whole page when the list is drawn again to put its position back', () => {
    expect(cards(render(1, 12))).toBe(5);
    expect(cards(render(1, 12, { drawAll: true }))).toBe(12);
  });
});
