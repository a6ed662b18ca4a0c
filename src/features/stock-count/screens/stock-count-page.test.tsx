/**
 * The count list's cards all offer the same actions: each action is described by its card's title,
 * so a screen reader's list of buttons reads "Edit, Count 12", not "Edit, Edit, Edit".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StockCountRow } from '../../../contract/stock';
import { CountCard } from './stock-count-page';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const count = (id: number, changes: Partial<StockCountRow> = {}): StockCountRow => ({
  id,
  created: '2026-12-01T08:00:00Z',
  created_by: 'planner@example.com',
  plant: '1000',
  type: 'cycle',
  should_be_done_at: null,
  status: 'initiated',
  is_draft: true,
  storage_location: '0001',
  conducted_by: 'mechanic@example.com',
  work_center: null,
  latest_sap_error: null,
  physical_inventory_document_number: null,
  total_lines: 4,
  counted_lines: 1,
  ...changes,
});
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const act = () => undefined;

/** Each action of the card: its name, and the text of the element that describes it. */
function actionsOf(html: string) {
  const actions = /<span class="count-card-actions">([\s\S]*)<\/span><\/li>/.exec(html)?.[1] ?? '';
  return [...actions.matchAll(/<(button|a)\b[^>]*>[\s\S]*?<\/\1>/g)].map(([element]) => {
    const described = /aria-describedby="([^"]+)"/.exec(element)?.[1];
    const target = described ? new RegExp(`<[^>]+id="${described}"[^>]*>([\\s\\S]*?)</`).exec(html)?.[1] : undefined;
    return { name: text(element), describedBy: target === undefined ? undefined : text(target) };
  });
}

describe('a count card', () => {
  it('describes every action by the card’s title', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <CountCard count={count(12)} onSend={act} onEdit={act} onCancel={act} onRecount={act} onSplit={act} />
      </MemoryRouter>,
    );
    const actions = actionsOf(html);
    expect(actions.map((action) => action.name)).toEqual([
      i18next.t('stockCount.print'),
      i18next.t('stockCount.sendDraft'),
      i18next.t('stockCount.edit'),
      i18next.t('stockCount.split.open'),
      i18next.t('stockCount.cancelCount'),
    ]);
    for (const action of actions) expect(action.describedBy, action.name).toBe(i18next.t('stockCount.title', { id: 12 }));
  });

  it('describes the merge and recount links of a split, completed count by its own title', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <CountCard count={count(13, { status: 'completed', is_draft: false, part_count: 2, open_recount_id: 14 })} onRecount={act} onSplit={act} />
      </MemoryRouter>,
    );
    const actions = actionsOf(html);
    expect(actions).toHaveLength(3);
    for (const action of actions) expect(action.describedBy, action.name).toBe(i18next.t('stockCount.title', { id: 13 }));
  });
});
