/**
 * The merge screen's line (#18, decision 0033): its buttons name the material they act on to a
 * screen reader, and "Send to recount" asks first, naming the material whose counted quantities
 * it clears.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MergeLineRow, StockCountPartRow } from '../../../contract/stock-count-parts';
import { MergeLine, RecountDialog } from './count-merge-page';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const line: MergeLineRow = {
  material_count_id: 41,
  material_code: 'KM100',
  material_description_english: 'Door roller',
  unit: 'PC',
  state: 'variance',
  quantity: null,
  book_quantity: 6,
  counts: [
    { part_id: 7, counter: 'mechanic@example.com', quantity: 5, counted_by: 'mechanic@example.com', counted_at: '2026-12-01T08:00:00Z' },
    { part_id: 8, counter: 'mikko.virtanen@lift.example', quantity: 7, counted_by: 'mikko.virtanen@lift.example', counted_at: '2026-12-01T08:05:00Z' },
  ],
  resolved_part_id: null,
  resolved_by: null,
  resolved_by_name: null,
  resolved_at: null,
};
const parts = [{ id: 8, counter: 'mikko.virtanen@lift.example', counter_name: 'Mikko Virtanen' }] as StockCountPartRow[];
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('a line of the merge screen', () => {
  it('describes each of its buttons by the line’s material code and description', () => {
    const html = renderToStaticMarkup(<MergeLine line={line} parts={parts} editable busy={false} onTake={() => undefined} onRecount={() => undefined} />);
    const buttons = [...html.matchAll(/<button[^>]*>[\s\S]*?<\/button>/g)].map((match) => match[0]);
    expect(buttons.map(text)).toEqual(['Take mechanic@example.com’s', 'Take Mikko Virtanen’s', 'Send to recount']);
    for (const button of buttons) {
      const described = /aria-describedby="([^"]+)"/.exec(button)?.[1];
      expect(described, button).toBeDefined();
      const target = new RegExp(`<span[^>]*id="${described}"[^>]*>([\\s\\S]*?)</span></span>`).exec(html)?.[1];
      expect(text(target ?? '')).toBe('KM100 Door roller');
    }
  });

  it('asks before sending a line to recount, naming the material whose counted quantities are cleared', () => {
    expect(renderToStaticMarkup(<RecountDialog line={null} busy={false} onConfirm={() => undefined} onClose={() => undefined} />)).not.toContain('KM100');
    const html = renderToStaticMarkup(<RecountDialog line={line} busy={false} onConfirm={() => undefined} onClose={() => undefined} />);
    const shown = text(html);
    expect(shown).toContain(i18next.t('stockCount.merge.recountTitle', { code: 'KM100' }));
    expect(shown).toContain(i18next.t('stockCount.merge.recountText', { code: 'KM100', description: 'Door roller' }));
    expect(shown).toContain('KM100 Door roller');
    expect([...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((match) => text(match[1]!))).toEqual(['Cancel', 'Send to recount']);
  });
});
