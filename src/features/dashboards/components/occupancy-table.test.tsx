/** The report's table: nothing with nobody to list (not a lone "Total 0 0"), numbers as the language writes them. */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { OccupancyTable } from './occupancy-table';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'de-DE', resources: { 'de-DE': { translation: { dashboard: { total: 'Gesamt' } } } }, interpolation: { escapeValue: false } });
});

const row = (who: string, completed: number, total: number) => ({
  conducted_by: who,
  total_tasks: total,
  completed_count: completed,
  not_completed_count: total - completed,
  completed_percentage: (completed / total) * 100,
  not_completed_percentage: 100 - (completed / total) * 100,
});

describe('OccupancyTable', () => {
  it('is not shown when no one has tasks in the range', () => {
    expect(renderToStaticMarkup(<OccupancyTable report={{ rows: [], total: { ...row('total', 0, 1), total_tasks: 0, not_completed_count: 0, completed_percentage: 0, not_completed_percentage: 0 } }} />)).toBe('');
  });

  it('writes the counts in the user’s number format', () => {
    const html = renderToStaticMarkup(<OccupancyTable report={{ rows: [row('anna@example.com', 1000, 3000)], total: row('total', 1000, 3000) }} />);
    const cells = [...html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((match) => match[1]);
    expect(cells.slice(0, 6)).toEqual(['anna@example.com', '3.000', '1.000', '2.000', '33,3\u00a0%', '66,7\u00a0%']);
    expect(cells[6]).toBe('Gesamt');
  });
});
