/** An empty report says why and what is counted; the figures are numbers of the user's language; the name is whole on hover. */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { OccupancyChart } from './occupancy-chart';

// The sentences the locales are to hold (dashboard.noTasks, dashboard.rules).
const NO_TASKS = 'No counting tasks in this range.';
const RULES = 'Counts are shown by the day they were created in their plant; drafts and cancelled counts are left out.';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'de-DE',
    resources: { 'de-DE': { translation: { dashboard: { noTasks: NO_TASKS, rules: RULES, total: 'Gesamt' } } } },
    interpolation: { escapeValue: false },
  });
});

const nobody = { conducted_by: 'total', total_tasks: 0, completed_count: 0, not_completed_count: 0, completed_percentage: 0, not_completed_percentage: 0 };
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

describe('OccupancyChart', () => {
  it('says there are no tasks and what the range counts, where it said “No items found”', () => {
    expect(text(renderToStaticMarkup(<OccupancyChart report={{ rows: [], total: nobody }} />))).toBe(`${NO_TASKS} ${RULES}`);
    // A page that shows the rules under its filter does not repeat them.
    expect(text(renderToStaticMarkup(<OccupancyChart report={{ rows: [], total: nobody }} showRules={false} />))).toBe(NO_TASKS);
  });

  it('writes the figures in the user’s number format and names the person whole on hover', () => {
    const row = { conducted_by: 'firstname.lastname@example.com', total_tasks: 3000, completed_count: 1000, not_completed_count: 2000, completed_percentage: 100 / 3, not_completed_percentage: 200 / 3 };
    const html = renderToStaticMarkup(<OccupancyChart report={{ rows: [row], total: { ...row, conducted_by: 'total' } }} />);
    expect(text(html)).toContain('1.000 · 33,3 % 2.000 · 66,7 % Σ 3.000');
    expect(html).toContain('title="firstname.lastname@example.com"');
  });
});
