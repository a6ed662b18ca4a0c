/**
 * A feedback form offline: the plant list (not kept on the device) is the profile's own plants,
 * which the device holds, for all but super managers, whose list only the server has: their form
 * says so next to the field. And a waiting text shows what it is, a delivered one is gone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedbackType } from '../../../contract/feedback';
import type { Profile } from '../../../contract/user-api';
import { sessionQueries } from '../../../lib/profile';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';
import { feedbackQueries } from '../api/feedback';
import { draftKeyOf, writeDraft } from '../api/feedback-drafts';
import { FeedbackForm } from './feedback-form';

// The browser's online flag has no server snapshot; these forms are drawn offline.
vi.mock('../../../lib/use-online', () => ({ useOnline: () => false }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  // Offline: the plant list's read waits for the connection (paused), with nothing at hand.
  onlineManager.setOnline(false);
});

afterEach(() => {
  onlineManager.setOnline(true);
});

const EMAIL = 'mechanic@example.com';

function render(type: FeedbackType, profile: Partial<Profile>, fetchedPlants?: { code: string; name: string }[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionQueries.profile().queryKey, { email: EMAIL, permissions: ['mechanic'], plants: [], ...profile } as Profile);
  if (fetchedPlants) client.setQueryData(feedbackQueries.plants(), fetchedPlants);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <FeedbackForm type={type} onSent={() => undefined} />
    </QueryClientProvider>,
  );
}

const plantOptions = (html: string) => [...html.matchAll(/<option value="([^"]+)"[^>]*>([^<]*)<\/option>/g)].map((match) => [match[1], match[2]]);

describe('a feedback form that needs a plant, offline', () => {
  it('offers the profile’s own plants when the plant list was not read', () => {
    const html = render('RequestStockTransfer', { plants: ['1000', '2000'] });
    expect(plantOptions(html)).toEqual([
      ['1000', '1000'],
      ['2000', '2000'],
    ]);
    expect(html).not.toContain('fb-plant-note');
    expect(html).not.toContain(i18next.t('feedback.noPlants'));
    expect(render('ReportStockDifference', { plants: ['1000'] })).toContain('<option value="1000">1000</option>');
  });

  it('offers the server’s list, with names, where it was read', () => {
    const html = render('RequestStockTransfer', { plants: ['1000'] }, [{ code: '1000', name: 'Helsinki' }]);
    expect(plantOptions(html)).toEqual([['1000', '1000 · Helsinki']]);
  });

  it('says next to the field that a super manager’s list is not at hand', () => {
    const html = render('RequestStockTransfer', { permissions: ['super_manager'], plants: [] });
    expect(plantOptions(html)).toEqual([]);
    expect(html).toMatch(/<select id="fb-plant"[^>]*aria-describedby="fb-plant-note"/);
    expect(html).toContain('<p id="fb-plant-note" class="muted small">');
    // Not "you have no plants": a super manager has every plant, only the list is missing.
    expect(html).not.toContain(i18next.t('feedback.noPlants'));
  });

  it('says "no plants" when the profile has none (the server’s list would be empty too)', () => {
    expect(render('RequestStockTransfer', { plants: [] })).toContain(i18next.t('feedback.noPlants'));
  });
});

describe('a feedback form shows its stored draft', () => {
  it('a text waiting for the connection: read-only, with the way to take it back', () => {
    writeDraft(draftKeyOf(EMAIL, 'ReportIssue'), { values: { description: 'The lift at gate 4 is stuck' }, key: 'key-1', sending: { type: 'ReportIssue', description: 'The lift at gate 4 is stuck' } as never });
    const html = render('ReportIssue', { plants: ['1000'] });
    expect(html).toContain('<fieldset class="feedback-fields" disabled="">');
    expect(html).toContain('The lift at gate 4 is stuck');
    expect(html).toContain(i18next.t('feedback.waitingForConnection'));
    expect(html).toContain(i18next.t('feedback.editAgain'));
  });

  it('a delivered text: gone, nothing to send again or take back', () => {
    writeDraft(draftKeyOf(EMAIL, 'ReportIssue'), { values: {}, key: 'key-2', delivered: 'key-1' });
    const html = render('ReportIssue', { plants: ['1000'] });
    expect(html).not.toContain('disabled=""');
    expect(html).not.toContain(i18next.t('feedback.waitingForConnection'));
    expect(html).not.toContain(i18next.t('feedback.editAgain'));
  });
});
