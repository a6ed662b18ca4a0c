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
import { dismissUnit, noteUnitLearned, unitScope } from '../offline/unit-notices';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';
import { MaterialLine, quantityAfterRemoval, readTypedQuantity, RemoveLineDialog, typedQuantityError, type LineActions } from './material-line';

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

  it('invents no unit for a line added by its code offline: a "?" that says the unit is not known yet', () => {
    const html = render({ ...testLine(3, null), unit: '' });
    expect(html).toContain(`aria-label="${i18next.t('stockCount.unitUnknown')}"`);
    expect(html).not.toContain('>PC<');
    expect(render(testLine(3, null))).toContain('<span class="unit">PC</span>');
  });

  it('tells the counter the unit a line counted as "?" turned out to be, once the server gave it (decision 0076)', () => {
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
    const scope = unitScope('mechanic@example.com', 27);
    const counted = { ...testLine(3, 12), unit: 'M' };
    noteUnitLearned(scope, counted.material_code, 'M');
    const withNotice = (line: MaterialCountRow) => renderToStaticMarkup(<MaterialLine line={line} entry={undefined} canEdit canRemove={false} actions={actions} typing={scope} />);
    const said = i18next.t('stockCount.unitLearned', { unit: 'M', quantity: '12' });
    expect(said).toContain('M');
    expect(text(withNotice(counted))).toContain(said);
    expect(withNotice(counted)).toContain(`aria-label="${i18next.t('stockCount.unitLearnedSeenFor', { code: counted.material_code })}"`);
    // Another line, or this one under another unit than the one noted: nothing to say.
    expect(text(withNotice({ ...testLine(4, 12), unit: 'M' }))).not.toContain(said);
    expect(text(withNotice({ ...counted, unit: 'PC' }))).not.toContain(i18next.t('stockCount.unitLearned', { unit: 'PC', quantity: '12' }));
    dismissUnit(scope, counted.material_code);
    expect(text(withNotice(counted))).not.toContain(said);
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

describe('a moved book quantity on a split count read whole (decision 0033)', () => {
  const moved = { ...testLine(5, 4, 3), book_quantity: 5, book_quantity_now: 7 };
  const renderFor = (rights: { canEdit: boolean; canKeepCounted?: boolean }) =>
    text(renderToStaticMarkup(<MaterialLine line={moved} entry={undefined} canRemove={false} actions={actions} {...rights} />));

  it('offers its planner Keep counted, the merged quantity against the book as it is now, and no Keep difference (the server refuses a new quantity)', () => {
    const shown = renderFor({ canEdit: false, canKeepCounted: true });
    expect(shown).toContain(i18next.t('stockCount.bookMoved', { before: '5', now: '7', unit: 'PC' }));
    expect(shown).toContain(i18next.t('stockCount.keepCounted', { quantity: '4' }));
    expect(shown).not.toContain(i18next.t('stockCount.keepDifference', { quantity: '6' }));
  });

  it('offers one who may neither count nor answer it only the notice', () => {
    const shown = renderFor({ canEdit: false });
    expect(shown).toContain(i18next.t('stockCount.bookMoved', { before: '5', now: '7', unit: 'PC' }));
    expect(shown).not.toContain(i18next.t('stockCount.keepCounted', { quantity: '4' }));
  });
});

describe('a quantity typed into a line', () => {
  it('reads "1,5" in German and "1.5" in English as one and a half, either separator as a decimal', () => {
    expect(readTypedQuantity('1,5', 'de-DE')).toEqual({ kind: 'quantity', value: 1.5 });
    expect(readTypedQuantity('1.5', 'de-DE')).toEqual({ kind: 'quantity', value: 1.5 });
    expect(readTypedQuantity('1.5', 'en-US')).toEqual({ kind: 'quantity', value: 1.5 });
    expect(readTypedQuantity('1,5', 'en-US')).toEqual({ kind: 'quantity', value: 1.5 });
    expect(readTypedQuantity('1,250', 'de-DE')).toEqual({ kind: 'quantity', value: 1.25 });
    expect(readTypedQuantity('1.250', 'en-US')).toEqual({ kind: 'quantity', value: 1.25 });
    expect(readTypedQuantity('0', 'de-DE')).toEqual({ kind: 'quantity', value: 0 });
    expect(readTypedQuantity(' ', 'de-DE')).toEqual({ kind: 'empty' });
  });

  it('refuses a number with the language’s thousands separator instead of reading it as a decimal', () => {
    expect(readTypedQuantity('1.250', 'de-DE')).toEqual({ kind: 'grouped' });
    expect(readTypedQuantity('10.000', 'de-DE')).toEqual({ kind: 'grouped' });
    expect(readTypedQuantity('1,250', 'en-US')).toEqual({ kind: 'grouped' });
    // French groups with a space: its "1.250" is a decimal, as before.
    expect(readTypedQuantity('1.250', 'fr-FR')).toEqual({ kind: 'quantity', value: 1.25 });
  });

  it('refuses what is no counted quantity (§5)', () => {
    for (const typed of ['-1', 'abc', '1,2345', '1e3']) expect(readTypedQuantity(typed, 'de-DE'), typed).toEqual({ kind: 'invalid' });
  });

  it('says in German how to write the quantity instead, with a German example', () => {
    expect(typedQuantityError('grouped', i18next.t, 'de-DE')).toBe(i18next.t('stock.transferQuantityGrouped', { example: '1500,5' }));
    expect(typedQuantityError('grouped', i18next.t, 'de-DE')).toContain('1500,5');
    expect(typedQuantityError('invalid', i18next.t, 'de-DE')).toBe(i18next.t('stockCount.quantityInvalid'));
  });

  it('never refuses what its own field shows', () => {
    for (const quantity of [1.25, 1250, 1234.5, 0.25]) {
      const value = /<input[^>]*value="([^"]*)"/.exec(render(testLine(5, quantity)))?.[1];
      expect(readTypedQuantity(value!, 'de-DE'), value).toEqual({ kind: 'quantity', value: quantity });
    }
  });
});

describe('removing a line (#10)', () => {
  const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((match) => match[0]);

  it('offers × without asking in the same press: no question is on the line until it is pressed', () => {
    const html = renderToStaticMarkup(<MaterialLine line={testLine(6, 2)} entry={undefined} canEdit canRemove actions={actions} />);
    expect(buttons(html).some((button) => button.includes(`aria-label="${i18next.t('stockCount.removeLine', { code: 'KM000006' })}"`))).toBe(true);
    expect(html).not.toContain('<dialog');
  });

  it('asks first, naming the material and the counted quantity that goes, with Cancel first', () => {
    const html = renderToStaticMarkup(<RemoveLineDialog line={{ ...testLine(7, 1.5), material_code: 'KM100', material_description_english: 'Door roller' }} onConfirm={none} onClose={none} />);
    const shown = text(html);
    expect(shown).toContain(i18next.t('stockCount.removeLineTitle', { code: 'KM100' }));
    expect(shown).toContain(i18next.t('stockCount.removeLineText', { code: 'KM100', description: 'Door roller' }));
    // The quantity as the user's language writes it (German here).
    expect(shown).toContain(i18next.t('stockCount.removeLineCounted', { quantity: '1,5', unit: 'PC' }));
    expect(html).toContain('notice danger');
    expect(buttons(html).map(text)).toEqual([i18next.t('common.cancel'), i18next.t('stockCount.removeLineConfirm')]);
  });

  it('says nothing of a quantity on a line not counted', () => {
    const html = renderToStaticMarkup(<RemoveLineDialog line={testLine(8)} onConfirm={none} onClose={none} />);
    expect(html).not.toContain('notice danger');
    expect(text(html)).toContain(i18next.t('stockCount.removeLineText', { code: 'KM000008', description: 'Part 8' }));
  });

  describe('the focus after a removal (its row, with the focused ×, leaves the page)', () => {
    // The rows as the list draws them (no DOM in unit tests): what quantityAfterRemoval asks of them.
    const field = (code: string, disabled = false) => ({ code, disabled }) as unknown as HTMLInputElement;
    const rows = (...lines: [string, HTMLInputElement | null][]) =>
      ({
        querySelectorAll: (selector: string) => {
          expect(selector).toBe('[data-line]');
          return lines.map(([code, input]) => ({
            dataset: { line: code },
            querySelector: (inner: string) => {
              expect(inner).toBe('input[data-quantity]:not(:disabled)');
              return input && !input.disabled ? input : null;
            },
          }));
        },
      }) as unknown as ParentNode;

    it('goes to the next line’s quantity', () => {
      const next = field('KM2');
      expect(quantityAfterRemoval('KM1', rows(['KM0', field('KM0')], ['KM1', field('KM1')], ['KM2', next]))).toBe(next);
    });

    it('goes to the previous line’s quantity when the last line goes', () => {
      const previous = field('KM1');
      expect(quantityAfterRemoval('KM2', rows(['KM0', field('KM0')], ['KM1', previous], ['KM2', field('KM2')]))).toBe(previous);
    });

    it('finds none when no other line is left, or none can be typed in (the page’s <main> takes it then)', () => {
      expect(quantityAfterRemoval('KM1', rows(['KM1', field('KM1')]))).toBeNull();
      expect(quantityAfterRemoval('KM1', rows(['KM1', field('KM1')], ['KM2', field('KM2', true)]))).toBeNull();
      expect(quantityAfterRemoval('KM9', rows(['KM1', field('KM1')]))).toBeNull();
    });
  });
});

describe('text typed into a line that left the page (decision 0071)', () => {
  it('is the field’s text again when the row is drawn, red with why', async () => {
    const { MemoryStorage } = await import('../../../../tests/setup/memory-storage');
    const { keepTyped, typedCodes, typingScope } = await import('../offline/typed-drafts');
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
    const typing = typingScope('mechanic@example.com', 27);
    keepTyped(typing, 'KM000005', { text: '1.250', from: { version: 0, quantity: null } });
    const html = renderToStaticMarkup(<MaterialLine line={testLine(5, null)} entry={undefined} canEdit canRemove={false} actions={actions} typing={typing} />);
    expect(/<input[^>]*value="([^"]*)"/.exec(html)?.[1]).toBe('1.250');
    expect(html).toContain('aria-invalid="true"');
    expect(text(html)).toContain(typedQuantityError('grouped', i18next.t.bind(i18next), 'de-DE'));
    // Read, not taken: a render may be thrown away. The row takes it off the list once on the page
    // (its first effect, which a static render does not run; the browser tests hold that).
    expect(typedCodes(typing)).toEqual(['KM000005']);
    // Another line, and the same line without a place to keep text, show the device's value.
    expect(/<input[^>]*value="([^"]*)"/.exec(render(testLine(5, 3)))?.[1]).toBe('3');
  });
});
