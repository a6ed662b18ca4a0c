/**
 * A counted line shows quantities as numbers of the user's language (1,5 in German): the field,
 * the book quantity, a conflict's two values and the book-moved choice. The field's text reads
 * back to the same quantity (decision 0064: what the field shows is what an edit builds on).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MaterialCountRow } from '../../../contract/stock';
import type { OutboxEntry } from '../../../offline/db';
import { parseQuantityInput } from '../../../domain/quantity';
import { testLine } from '../offline/test-rows';
import { MaterialLine, type LineActions } from './material-line';

beforeAll(async () => {
  const german = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'de-DE', resources: { 'de-DE': { translation: german } }, interpolation: { escapeValue: false } });
});

const none = () => undefined;
const actions: LineActions = {
  onQuantity: () => Promise.resolve(),
  onAcceptBook: none,
  onRemove: none,
  onRetry: none,
  onDiscard: none,
  onKeepMine: none,
  onTakeTheirs: none,
  onChooseBookAgain: none,
};
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const render = (line: MaterialCountRow, entry?: OutboxEntry) =>
  renderToStaticMarkup(<MaterialLine line={line} entry={entry} canEdit canRemove={false} actions={actions} />);

describe('a counted line in German', () => {
  it('shows the counted quantity in the field as German writes it, reading back to the same quantity', () => {
    const html = render({ ...testLine(1, 1.5), book_quantity: 2.5, book_quantity_now: 2.5 });
    const value = /<input[^>]*value="([^"]*)"/.exec(html)?.[1];
    expect(value).toBe('1,5');
    expect(parseQuantityInput(value!)).toBe(1.5);
    expect(text(html)).toContain(i18next.t('stockCount.book', { quantity: '2,5', unit: 'PC' }));
  });

  it('writes no grouping into the field, so a large quantity reads back unchanged', () => {
    const value = /<input[^>]*value="([^"]*)"/.exec(render(testLine(2, 1234.5)))?.[1];
    expect(value).toBe('1234,5');
    expect(parseQuantityInput(value!)).toBe(1234.5);
  });

  it('names both values of a conflict in German', () => {
    const entry: OutboxEntry = {
      id: 'e1',
      userEmail: 'mechanic@example.com',
      kind: 'material-count.quantity',
      scope: 'count:27',
      target: 'line:3',
      request: { service: 'stock', method: 'PUT', path: 'material_count', json: { modifiedMaterials: [{ id: 3, quantity: 1.5 }] } },
      status: 'conflict',
      createdAt: 0,
      attempts: 1,
      theirs: { ...testLine(3, 2.25, 2), updated_by: 'anna@example.com' },
    };
    expect(text(render(testLine(3, 1.5), entry))).toContain(i18next.t('sync.conflictText', { mine: '1,5', theirs: '2,25', who: 'anna@example.com' }));
  });

  it('offers Keep counted and Keep difference with German numbers after the book moved', () => {
    const shown = text(render({ ...testLine(4, 1.5), book_quantity: 2.5, book_quantity_now: 3.75 }));
    expect(shown).toContain(i18next.t('stockCount.bookMoved', { before: '2,5', now: '3,75', unit: 'PC' }));
    expect(shown).toContain(i18next.t('stockCount.keepCounted', { quantity: '1,5' }));
    expect(shown).toContain(i18next.t('stockCount.keepDifference', { quantity: '2,75' }));
  });
});
