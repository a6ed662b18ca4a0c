/**
 * §3 top bar: "All changes saved on the server" is a promise to a mechanic about to close the app.
 * Before the device database has answered (it loads after the first screen, #22), the top bar
 * does not know what waits, and must not say all is saved (a start right after an edit and a
 * reload showed it while the edit was still queued: browser chaos, CHAOS_SEED=1030232864).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SyncStatus } from './sync-status';

// The connection is the browser's (a store without a server snapshot); here it is online.
vi.mock('../../lib/use-online', () => ({ useOnline: () => true }));
// Feedback whose Send was pressed and that has no answer yet (decision 0062), per test.
const feedback = vi.hoisted(() => ({ waiting: 0 }));
vi.mock('../../features/feedback/api/feedback-drafts', () => ({ useWaitingFeedbackCount: () => feedback.waiting }));

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

describe('SyncStatus', () => {
  it('claims nothing about saved changes until the device database has answered', () => {
    // A first render: the device's live read has not answered yet (effects have not run).
    const html = renderToStaticMarkup(<SyncStatus userEmail="mechanic@example.com" />);
    const label = /aria-label="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(label).toBe('Online');
    expect(html).not.toContain('All changes saved');
  });

  it('counts feedback still on the phone as waiting, and does not say all is saved while it is', () => {
    feedback.waiting = 2;
    try {
      const html = renderToStaticMarkup(<SyncStatus userEmail="mechanic@example.com" />);
      const label = /aria-label="([^"]*)"/.exec(html)?.[1] ?? '';
      expect(label).toBe('Online · Feedback waiting to be sent: 2');
      expect(html).toContain('<span class="sync-count">2</span>');
      expect(html).not.toContain('All changes saved');
    } finally {
      feedback.waiting = 0;
    }
  });
});
