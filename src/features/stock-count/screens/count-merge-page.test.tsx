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
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MergeLineRow, StockCountPartRow } from '../../../contract/stock-count-parts';
import { MergeLine, MergeSubmit, RecountDialog, focusMergeLine, mergeRights } from './count-merge-page';
import { testMergeLine } from '../offline/test-rows';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  const german = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: english }, 'de-DE': { translation: german } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => i18next.changeLanguage('en-US'));

const line = testMergeLine(7);
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

  it('shows each counter’s quantity and the book quantity as the planner’s language writes them', async () => {
    await i18next.changeLanguage('de-DE');
    const decimals: MergeLineRow = { ...line, book_quantity: 6.25, counts: [{ ...line.counts[0]!, quantity: 1.5 }, { ...line.counts[1]!, quantity: 1234.5 }] };
    const shown = text(renderToStaticMarkup(<MergeLine line={decimals} parts={parts} editable busy={false} onTake={() => undefined} onRecount={() => undefined} />));
    expect(shown).toContain('1,5 PC');
    expect(shown).toContain('1.234,5 PC');
    expect(shown).toContain(i18next.t('stockCount.book', { quantity: '6,25', unit: 'PC' }));
  });

  it('after Take <name>’s (which leaves with its press), moves the focus to the line’s code and description', () => {
    const html = renderToStaticMarkup(<MergeLine line={line} parts={parts} editable busy={false} onTake={() => undefined} onRecount={() => undefined} />);
    // Focusable by script only, and the element the take buttons are described by.
    expect(html).toMatch(/<span class="merge-line-what" id="merge-line-what-41" tabindex="-1">/);
    const focus = vi.fn();
    const root = { getElementById: vi.fn((id: string) => (id === 'merge-line-what-41' ? ({ focus } as unknown as HTMLElement) : null)) };
    focusMergeLine(41, root);
    expect(focus).toHaveBeenCalledOnce();
    expect(() => focusMergeLine(99, root)).not.toThrow();
  });
});

describe('what the merge screen offers', () => {
  it('decides, splits and submits an open count, online', () => {
    expect(mergeRights({ status: 'in_progress' }, true)).toMatchObject({ editable: true, canSubmit: true });
    expect(mergeRights({ status: 'in_progress' }, false)).toMatchObject({ editable: false, canSubmit: false });
  });

  it('offers only Submit on a count left being booked (decision 0053: sent again under the same ERP reference)', () => {
    expect(mergeRights({ status: 'submitted', being_booked: true }, true)).toEqual({ editable: false, booking: true, canSubmit: true });
    expect(mergeRights({ status: 'submitted', being_booked: true }, false).canSubmit).toBe(false);
    // One who may only read the count finishes no booking (as on the count screen).
    expect(mergeRights({ status: 'submitted', being_booked: true, writable_by_you: false }, true).canSubmit).toBe(false);
  });

  it('offers no decision, split or submit to one who does not plan the count, or may only read it', () => {
    // A supervisor who only counts it: the server refuses a planner's Take, Send to recount, split and submit.
    expect(mergeRights({ status: 'in_progress', planned_by_you: false }, true)).toEqual({ editable: false, booking: false, canSubmit: false });
    // A read-only super manager reads every count and changes none of these.
    expect(mergeRights({ status: 'in_progress', planned_by_you: true, writable_by_you: false }, true)).toEqual({ editable: false, booking: false, canSubmit: false });
    expect(mergeRights({ status: 'in_progress', planned_by_you: true, writable_by_you: true }, true)).toMatchObject({ editable: true, canSubmit: true });
    // So its lines offer no Take or Send to recount.
    const { editable } = mergeRights({ status: 'in_progress', planned_by_you: false }, true);
    const html = renderToStaticMarkup(<MergeLine line={line} parts={parts} editable={editable} busy={false} onTake={() => undefined} onRecount={() => undefined} />);
    expect(html).not.toContain('<button');
  });

  it('offers nothing on a count submitted otherwise or booked', () => {
    expect(mergeRights({ status: 'submitted' }, true)).toEqual({ editable: false, booking: false, canSubmit: false });
    expect(mergeRights({ status: 'completed', being_booked: false }, true).canSubmit).toBe(false);
  });
});

describe('the merge screen’s Submit', () => {
  const row = { id: 5, counted_lines: 3, total_lines: 3 };
  const render = (confirming: boolean, onConfirm = () => undefined, counted = row) =>
    renderToStaticMarkup(<MergeSubmit row={counted} online busy={false} confirming={confirming} onAsk={() => undefined} onConfirm={onConfirm} onClose={() => undefined} />);

  it('asks before booking the count in the ERP: pressed, it opens the count screen’s confirmation, not the submit', () => {
    const closed = render(false);
    expect([...closed.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((match) => text(match[1]!))).toEqual(['Submit']);
    expect(text(closed)).not.toContain(i18next.t('stockCount.submitTitle', { id: 5 }));
    const asking = text(render(true));
    expect(asking).toContain(i18next.t('stockCount.submitTitle', { id: 5 }));
    expect(asking).toContain(i18next.t('stockCount.submitText', { counted: 3, total: 3, count: 3 }));
    expect(asking).toContain(`${i18next.t('common.cancel')} ${i18next.t('stockCount.submitConfirm')}`);
  });

  it('holds the confirmation while lines have no quantity, as the server would refuse it', () => {
    const html = render(true, () => undefined, { id: 5, counted_lines: 2, total_lines: 3 });
    expect(text(html)).toContain(i18next.t('stockCount.submitMissing', { count: 1 }));
    expect(html).toMatch(/<button type="button" class="button primary" disabled="">/);
  });
});
