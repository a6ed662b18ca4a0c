/** Where Safari deletes unused storage after 7 days, and where it does not. */
import { describe, expect, it } from 'vitest';
import { closedRecently, evictionRisk } from './eviction-notice';

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const MAC_SAFARI = IPAD;
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('evictionRisk', () => {
  it('is the phone’s on every iPhone or iPad browser (all WebKit), unless opened from the Home Screen', () => {
    expect(evictionRisk({ userAgent: IPHONE_SAFARI, maxTouchPoints: 5, standalone: false })).toBe('phone');
    expect(evictionRisk({ userAgent: IPHONE_CHROME, maxTouchPoints: 5, standalone: false })).toBe('phone');
    // iPadOS says Macintosh; its touch screen tells.
    expect(evictionRisk({ userAgent: IPAD, maxTouchPoints: 5, standalone: false })).toBe('phone');
    expect(evictionRisk({ userAgent: IPHONE_SAFARI, maxTouchPoints: 5, standalone: true })).toBe('none');
  });

  it('is the Mac’s in Safari only, unless added to the Dock', () => {
    expect(evictionRisk({ userAgent: MAC_SAFARI, maxTouchPoints: 0, standalone: false })).toBe('mac');
    expect(evictionRisk({ userAgent: MAC_SAFARI, maxTouchPoints: 0, standalone: true })).toBe('none');
    expect(evictionRisk({ userAgent: MAC_CHROME, maxTouchPoints: 0, standalone: false })).toBe('none');
    expect(evictionRisk({ userAgent: MAC_FIREFOX, maxTouchPoints: 0, standalone: false })).toBe('none');
  });

  it('is none on Android', () => {
    expect(evictionRisk({ userAgent: ANDROID_CHROME, maxTouchPoints: 5, standalone: false })).toBe('none');
  });
});

describe('closedRecently', () => {
  const store = (value: string | null) => ({ getItem: () => value });
  const now = Date.UTC(2026, 11, 1);
  it('keeps the notice away for a week after it was closed, not longer', () => {
    expect(closedRecently(now, store(String(now - 6 * 24 * 3600_000)))).toBe(true);
    expect(closedRecently(now, store(String(now - 8 * 24 * 3600_000)))).toBe(false);
    expect(closedRecently(now, store(null))).toBe(false);
    expect(closedRecently(now, null)).toBe(false);
    // A clock set back does not keep it away for ever.
    expect(closedRecently(now, store(String(now + 3600_000)))).toBe(false);
  });
});
