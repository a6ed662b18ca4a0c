/** §2 dashboard: completed AND not completed counts and percentages, per person and in total. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { OccupancyChart } from './occupancy-chart';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  const german = JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', 'de-DE.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: english }, 'de-DE': { translation: german } },
    interpolation: { escapeValue: false },
  });
});

const row = (who: string, completed: number, total: number) => ({
  conducted_by: who,
  total_tasks: total,
  completed_count: completed,
  not_completed_count: total - completed,
  completed_percentage: Math.round((completed / total) * 100),
  not_completed_percentage: 100 - Math.round((completed / total) * 100),
});

describe('OccupancyChart', () => {
  it('shows completed and not completed counts with percentages for each person and the total', () => {
    const html = renderToStaticMarkup(<OccupancyChart report={{ rows: [row('anna@example.com', 3, 4)], total: row('total', 3, 4) }} />);
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('3 · 75%');
    expect(text).toContain('1 · 25%');
    expect(html).toContain('aria-label="Completed: 3 (75%), not completed: 1 (25%), total: 4"');
    expect(html.match(/aria-label="Completed:/g)).toHaveLength(2);
  });

  it('reads the bar’s numbers to a screen reader as the language writes them, rounded as shown', async () => {
    await i18next.changeLanguage('de-DE');
    try {
      const third = { conducted_by: 'anna@example.com', total_tasks: 3000, completed_count: 1000, not_completed_count: 2000, completed_percentage: 100 / 3, not_completed_percentage: 200 / 3 };
      const html = renderToStaticMarkup(<OccupancyChart report={{ rows: [third], total: third }} />);
      const label = /aria-label="([^"]*)"/.exec(html)?.[1];
      expect(label).toBe(i18next.t('dashboard.barLabel', { completed: '1.000', completedPercent: '33,3', notCompleted: '2.000', notCompletedPercent: '66,7', total: '3.000' }));
      expect(label).toContain('(33,3 %)');
    } finally {
      await i18next.changeLanguage('en-US');
    }
  });
});
