/**
 * The planner's merge calls act on what the screen showed (#18, decision 0033): "Take X's" sends
 * the counter's quantity it showed, "Send to recount" every counter's, and "Submit anyway" the
 * open parts it listed, so the server refuses what changed meanwhile instead of booking it unseen.
 */
import i18next from 'i18next';
import { HTTPError, type NormalizedOptions } from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPartIdsParam, resolveLineBody, type StockCountPartRow, type StockCountParts } from '../../../contract/stock-count-parts';
import { isSplitChangedMeanwhile, MIXED_SPLIT_REVISION, readSplit, recountLineBody, submitAsPlanner, submitSearchParams, takeLineBody } from './count-parts';
import { stockApi } from '../../../lib/api-client';
import { testMergeLine } from '../offline/test-rows';

const line = testMergeLine(7.5);

describe('the merge screen’s requests', () => {
  it('takes a counter’s quantity with the quantity and the decision shown, in a body the server accepts', () => {
    const body = takeLineBody(3, line, 8);
    expect(body).toEqual({ stockCountId: 3, materialCountId: 41, action: 'take', partId: 8, expectedQuantity: 7.5, expectedResolvedPartId: null });
    expect(resolveLineBody.safeParse(body).success).toBe(true);
    // Changing one's mind on a decided line names the decision it changes (another planner's since is refused).
    const decided = takeLineBody(3, { ...line, state: 'resolved', resolved_part_id: 7, quantity: 5 }, 8);
    expect(decided).toMatchObject({ partId: 8, expectedResolvedPartId: 7 });
    expect(resolveLineBody.safeParse(decided).success).toBe(true);
  });

  it('sends a line to recount with every counter’s quantity and the decision shown', () => {
    const body = recountLineBody(3, { ...line, counts: [line.counts[0]!, { ...line.counts[1]!, quantity: null }] });
    expect(body).toEqual({
      stockCountId: 3,
      materialCountId: 41,
      action: 'recount',
      expectedCounts: [
        { partId: 7, quantity: 5 },
        { partId: 8, quantity: null },
      ],
      expectedResolvedPartId: null,
    });
    expect(resolveLineBody.safeParse(body).success).toBe(true);
    expect(recountLineBody(3, { ...line, state: 'resolved', resolved_part_id: 8 }).expectedResolvedPartId).toBe(8);
  });

  it('confirms open parts by naming those the planner was shown; a plain submit confirms none', () => {
    expect(submitSearchParams(3).toString()).toBe('stockCountId=3');
    expect(submitSearchParams(3, [7, 9]).toString()).toBe('stockCountId=3&confirmOpenParts=true&openPartIds=7&openPartIds=9');
    // The submit's query reads them back as the server will (repeated keys; one key is one value).
    expect(openPartIdsParam.parse(['7', '9'])).toEqual([7, 9]);
    expect(openPartIdsParam.parse('7')).toEqual([7]);
  });
});

const refusal = (status: number, body: unknown) => new HTTPError(new Response(JSON.stringify(body), { status }), new Request('http://api.test/x'), {} as NormalizedOptions);
const part = (id: number, counter: string) => ({ id, counter, counter_name: null, label: null }) as StockCountPartRow;

describe('the split editor’s reads', () => {
  it('reads the split as it is now when it has none at hand, with each part’s codes and whether it is blind', async () => {
    const progress = { parts: [part(7, 'mechanic@example.com'), part(8, 'aino.korhonen@lift.example')], is_blind: true, split_revision: 'r1' } as StockCountParts;
    // The second part is read after the split changed (r2): the form names a revision no split has, so its save is refused and read again.
    const read = { progress: async () => progress, codes: async (_count: number, partId: number) => (partId === 7 ? { codes: ['KM100'], revision: 'r1' } : { codes: ['KM200', 'KM300'], revision: 'r2' }) };
    expect(await readSplit(3, null, read)).toEqual({ parts: progress.parts, codes: [['KM100'], ['KM200', 'KM300']], isBlind: true, revision: MIXED_SPLIT_REVISION });
    const agreeing = { ...read, codes: async (_count: number, partId: number) => ({ codes: partId === 7 ? ['KM100'] : ['KM200'], revision: 'r1' }) };
    expect((await readSplit(3, null, agreeing)).revision).toBe('r1');
    expect(await readSplit(3, [], read)).toEqual({ parts: [], codes: [], isBlind: null });
    // Parts already at hand: the parts' own revision, when they agree.
    expect((await readSplit(3, [part(8, 'aino.korhonen@lift.example'), part(7, 'mechanic@example.com')], agreeing)).revision).toBe('r1');
    expect((await readSplit(3, [part(8, 'aino.korhonen@lift.example'), part(7, 'mechanic@example.com')], read)).revision).toBe(MIXED_SPLIT_REVISION);
  });

  it('fails when a part’s lines cannot be read, rather than hand the editor a blank split', async () => {
    const gone = refusal(404, { message: 'Part 8 not found in stock count 3' });
    const read = { progress: async () => ({ parts: [] }) as unknown as StockCountParts, codes: async (_count: number, partId: number) => (partId === 7 ? { codes: ['KM100'] } : Promise.reject(gone)) };
    await expect(readSplit(3, [part(7, 'mechanic@example.com'), part(8, 'aino.korhonen@lift.example')], read)).rejects.toBe(gone);
  });

  it('tells a split changed meanwhile from other refusals', async () => {
    expect(await isSplitChangedMeanwhile(refusal(409, { message: 'changed', code: 'splitChangedMeanwhile', params: { id: 3 } }))).toBe(true);
    expect(await isSplitChangedMeanwhile(refusal(409, { message: 'Lines already counted cannot leave their part' }))).toBe(false);
    expect(await isSplitChangedMeanwhile(refusal(400, { message: 'overlap', code: 'splitOverlap' }))).toBe(false);
    expect(await isSplitChangedMeanwhile(new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('the planner’s submit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const answer = (status: number, body: unknown) =>
    vi.spyOn(stockApi, 'get').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }) as never);

  it('words a coded refusal in the user’s language, a 503 in its words, and keeps any other message (decision 0055)', async () => {
    await i18next.init({
      lng: 'de-DE',
      resources: {
        'de-DE': {
          translation: {
            serverErrors: {
              openPartsChangedMeanwhile_one: 'Ein Teil ist jetzt offen: {{counters}}.',
              openPartsChangedMeanwhile_other: '{{count}} Teile sind jetzt offen: {{counters}}.',
              deadlinePast: 'Frist {{deadline}} ist vorbei.',
              unavailable: 'Der Dienst ist gerade nicht erreichbar.',
            },
          },
        },
      },
      showSupportNotice: false,
    } as Parameters<typeof i18next.init>[0]);
    const open: StockCountPartRow = { id: 7, stock_count_id: 3, counter: 'mechanic@example.com', counter_name: null, label: null, status: 'open', done_at: null, total_lines: 4, counted_lines: 2, control_lines: 0, is_mine: false };
    answer(409, { message: 'Other parts are open now', code: 'openPartsChangedMeanwhile', params: { count: 1, counters: 'mechanic@example.com' }, open_parts: [open] });
    expect(await submitAsPlanner(3, [8])).toEqual({ outcome: 'open-parts', message: 'Ein Teil ist jetzt offen: mechanic@example.com.', openParts: [open], changed: true });
    answer(400, { message: 'The deadline 2026-01-01 is in the past', code: 'deadlinePast', params: { deadline: '2026-01-01' } });
    expect(await submitAsPlanner(3)).toEqual({ outcome: 'refused', message: 'Frist 2026-01-01 ist vorbei.' });
    answer(503, { message: 'The ERP system did not answer. Stock count 3 stays submitted: send it again to finish booking it (it is booked once).' });
    expect(await submitAsPlanner(3)).toEqual({ outcome: 'refused', message: 'Der Dienst ist gerade nicht erreichbar.' });
    answer(409, { message: 'Something the app has no words for' });
    expect(await submitAsPlanner(3)).toEqual({ outcome: 'refused', message: 'Something the app has no words for' });
  });
});
