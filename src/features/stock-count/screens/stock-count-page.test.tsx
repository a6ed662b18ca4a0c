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
import { formatCreated } from '../../../lib/date-formats';
import { setDatesLocale } from '../../../lib/dates';
import { CountCard, readCountList, writeCountList } from './stock-count-page';

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

/** Each action button of the card: its name and whether it is held (disabled). */
const buttonsOf = (html: string) =>
  [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(([, attributes, name]) => ({ name: text(name!), disabled: /\bdisabled=""/.test(attributes!) }));

describe('a count card’s actions', () => {
  const render = (card: Parameters<typeof CountCard>[0]) =>
    renderToStaticMarkup(
      <MemoryRouter>
        <CountCard {...card} />
      </MemoryRouter>,
    );

  it('offers no Recount on a completed count without differences (the server refuses it), and offers it otherwise', () => {
    const completed = (changes: Partial<StockCountRow>) => count(20, { status: 'completed', is_draft: false, ...changes });
    const recount = i18next.t('stockCount.recount');
    expect(text(render({ count: completed({ has_differences: false }), onRecount: act }))).not.toContain(recount);
    expect(text(render({ count: completed({ has_differences: true }), onRecount: act }))).toContain(recount);
    // A row of an older server or a saved copy does not say: Recount stays.
    expect(text(render({ count: completed({}), onRecount: act }))).toContain(recount);
  });

  it('holds every action while a change of the count waits, and says so; Send only behind waiting edits', () => {
    const all = { onSend: act, onEdit: act, onCancel: act, onSplit: act };
    const cancelWaits = render({ count: count(21), ...all, waiting: { editsOnly: false, counter: null, refused: false } });
    expect(buttonsOf(cancelWaits).every((button) => button.disabled)).toBe(true);
    expect(text(cancelWaits)).toContain(i18next.t('sync.pending'));
    const editWaits = buttonsOf(render({ count: count(22, { conducted_by: null }), ...all, waiting: { editsOnly: true, counter: 'mechanic@example.com', refused: false } }));
    expect(editWaits.filter((button) => !button.disabled).map((button) => button.name)).toEqual([i18next.t('stockCount.sendDraft')]);
    const free = render({ count: count(23), ...all });
    expect(buttonsOf(free).some((button) => button.disabled)).toBe(false);
    expect(text(free)).not.toContain(i18next.t('sync.pending'));
    // A refused change waits for the planner, not for a connection: the card says it was not accepted.
    const refused = render({ count: count(24), ...all, waiting: { editsOnly: false, counter: null, refused: true } });
    expect(buttonsOf(refused).every((button) => button.disabled)).toBe(true);
    expect(text(refused)).toContain(i18next.t('stockCount.waiting.refusedChip'));
    expect(text(refused)).not.toContain(i18next.t('sync.pending'));
  });

  it('holds Send while the card’s action is on its way (a double tap sent twice)', () => {
    const busy = buttonsOf(render({ count: count(24), onSend: act, onEdit: act, busy: true }));
    expect(busy.map((button) => button.disabled)).toEqual([true, true]);
  });
});

describe('a count card’s facts (§9)', () => {
  it('says when the count was created, as a long date with time, and by whom', async () => {
    await setDatesLocale('en-US');
    const created = '2026-12-15T08:00:00.000Z';
    const shown = text(
      renderToStaticMarkup(
        <MemoryRouter>
          <CountCard count={count(25, { created, created_by: 'planner@example.com' })} />
        </MemoryRouter>,
      ),
    );
    expect(shown).toContain(i18next.t('stockCount.createdBy', { date: formatCreated(created), who: 'planner@example.com' }));
    // Long and localized (decision 0020), not the content date.
    expect(shown).toMatch(/December 1\d, 2026 \d{1,2}:00 [AP]M/);
    expect(shown).toContain('planner@example.com');
  });
});

describe('the list in the address', () => {
  const read = (search: string) => readCountList(new URLSearchParams(search));

  it('reads the plain address as the default list, and writes the default list as the plain address', () => {
    const state = read('');
    expect(state).toEqual({ params: { page: 1, maxResults: 20, orderByColumn: 'plant', sortDirection: 'asc' }, more: 0 });
    expect(writeCountList(state).toString()).toBe('');
  });

  it('keeps search, type, sort, page and the pages loaded, through a round trip', () => {
    const state = read('q=V001&type=single&sort=created:desc&page=3&more=2');
    expect(state).toEqual({ params: { page: 3, maxResults: 20, orderByColumn: 'created', sortDirection: 'desc', query: 'V001', type: 'single' }, more: 2 });
    expect(read(writeCountList(state).toString())).toEqual(state);
  });

  it('reads what it does not understand as the default', () => {
    expect(read('q=%20%20&type=cycle&sort=secret:up&page=-2&more=x')).toEqual(read(''));
    expect(read('sort=status:sideways').params).toMatchObject({ orderByColumn: 'plant', sortDirection: 'asc' });
    expect(read('more=500').more).toBe(20);
  });
});
