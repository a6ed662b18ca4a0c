/**
 * The split editor (#18, decision 0033) never replaces a split it did not show: its save names the
 * parts it started from, a split it could not read offers Try again instead of a blank form, and
 * "Counted by" shows each part's counter even when the plant's list of mechanics lacks them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitStockCountBody } from '../../../contract/stock-count-parts';
import { CounterSelect, SplitLoadFailed, counterChoices, draftPart, splitBody } from './split-count-dialog';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const mechanics = [
  { email: 'mechanic@example.com', display_name: 'Matti Mekaanikko', work_centers: [] },
  { email: 'aino.korhonen@lift.example', display_name: 'Aino Korhonen', work_centers: [] },
];

describe('the split editor', () => {
  it('saves with the ids of the parts it started from: none for a count not split, so a split made meanwhile is refused', () => {
    const drafts = [draftPart('bins', { counter: 'mechanic@example.com', binFrom: 'A-00', binTo: 'A-99' }), draftPart('rest', { counter: 'aino.korhonen@lift.example' })];
    const fresh = splitBody(3, drafts, [], { wanted: false, was: false });
    expect(fresh.expectedPartIds).toEqual([]);
    expect(fresh).not.toHaveProperty('blind');
    expect(fresh).not.toHaveProperty('expectedSplitRevision');
    const edited = splitBody(3, drafts, [7, 8], { wanted: true, was: false }, 'a1b2');
    expect(edited).toMatchObject({ stockCountId: 3, expectedPartIds: [7, 8], blind: true, expectedSplitRevision: 'a1b2' });
    // A body the server takes as it is.
    expect(splitStockCountBody.safeParse(fresh).success).toBe(true);
    expect(splitStockCountBody.parse(edited).expectedPartIds).toEqual([7, 8]);
  });

  it('opens a part counted by someone the list of mechanics lacks on that person, by name, or e-mail when there is none', () => {
    const shown = [
      { counter: 'supervisor@example.com', counter_name: 'Sanna Heikkinen' },
      { counter: 'expired@example.com', counter_name: null },
      { counter: 'mechanic@example.com', counter_name: 'Matti Mekaanikko' },
    ];
    const supervisor = counterChoices(mechanics, shown, 'supervisor@example.com', ['expired@example.com', 'mechanic@example.com']);
    // Those given another part are not offered; the listed mechanic is not offered twice.
    expect(supervisor).toEqual([
      { email: 'aino.korhonen@lift.example', label: 'Aino Korhonen · aino.korhonen@lift.example' },
      { email: 'supervisor@example.com', label: 'Sanna Heikkinen · supervisor@example.com' },
    ]);
    const html = renderToStaticMarkup(<CounterSelect id="who" value="supervisor@example.com" choices={supervisor} invalid={false} onChange={() => undefined} />);
    expect(text(/<option[^>]*selected[^>]*>[\s\S]*?<\/option>/.exec(html)?.[0] ?? '')).toBe('Sanna Heikkinen · supervisor@example.com');
    // The list did not come at all: each part still shows its counter.
    expect(counterChoices(undefined, shown, 'expired@example.com', [])).toContainEqual({ email: 'expired@example.com', label: 'expired@example.com' });
    expect(counterChoices(undefined, [], 'someone@example.com', [])).toEqual([{ email: 'someone@example.com', label: 'someone@example.com' }]);
  });

  it('offers Try again, not a blank form to save, when the split could not be read', () => {
    const html = renderToStaticMarkup(
      <SplitLoadFailed error={new TypeError('Failed to fetch')} refusal="The counters of stock count 3 were changed by someone else." onRetry={() => undefined} onClose={() => undefined} />,
    );
    const buttons = [...html.matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/g)];
    expect(buttons.map((match) => text(match[2]!))).toEqual(['Cancel', 'Try again']);
    expect(buttons.some((match) => match[1]!.includes('type="submit"'))).toBe(false);
    expect(html).not.toContain('<form');
    expect(text(html)).toContain('The counters of stock count 3 were changed by someone else.');
    expect(text(html)).toContain(i18next.t('common.loadOffline'));
  });
});
