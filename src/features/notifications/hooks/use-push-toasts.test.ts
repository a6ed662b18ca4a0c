import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_ALERT_SECONDS, PUSH_TOAST_MS } from '../../../domain/constants';
import { currentToast, dismissToast, showToast } from '../../../components/ui/toast';
import { dismissError, showError } from '../../../lib/error-alert';
import { localPath, pushToastText } from './use-push-toasts';

describe('push toasts (§9)', () => {
  afterEach(() => {
    dismissToast();
    vi.useRealTimers();
  });

  it('opens only screens of our own origin', () => {
    expect(localPath('/order-details/4001205401?tab=1', 'https://app.example')).toBe('/order-details/4001205401?tab=1');
    expect(localPath('https://app.example/stock-count', 'https://app.example')).toBe('/stock-count');
    expect(localPath('https://evil.example/phish', 'https://app.example')).toBeNull();
    expect(localPath('javascript:alert(1)', 'https://app.example')).toBeNull();
  });

  it('words a message as title and body, without empty parts', () => {
    expect(pushToastText('Parcel arrived', 'Order 4001205401 is at the locker')).toBe('Parcel arrived: Order 4001205401 is at the locker');
    expect(pushToastText('Parcel arrived', ' ')).toBe('Parcel arrived');
  });

  it('stays 10,000 ms, then hides by itself', () => {
    vi.useFakeTimers();
    showToast('Parcel arrived', 'info', { ms: PUSH_TOAST_MS });
    expect(currentToast()?.message).toBe('Parcel arrived');
    vi.advanceTimersByTime(PUSH_TOAST_MS - 1);
    expect(currentToast()?.message).toBe('Parcel arrived');
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
  });

  it('waits under the error alert and then stays its whole time (it expired unseen)', () => {
    vi.useFakeTimers();
    showError('Something failed');
    showToast('Parcel arrived', 'info', { ms: PUSH_TOAST_MS });
    // Longer than the toast's own time, while the alert stays up (9 s; the toast's is 10 s).
    vi.advanceTimersByTime(ERROR_ALERT_SECONDS * 1000 - 1);
    showError('Still failing');
    vi.advanceTimersByTime(ERROR_ALERT_SECONDS * 1000 - 1);
    expect(currentToast()?.message).toBe('Parcel arrived');
    dismissError();
    vi.advanceTimersByTime(PUSH_TOAST_MS - 1);
    expect(currentToast()?.message).toBe('Parcel arrived');
    vi.advanceTimersByTime(1);
    expect(currentToast()).toBeNull();
    // An alert that comes while a toast shows holds it too.
    showToast('Order 4001205401 arrived', 'info', { ms: PUSH_TOAST_MS });
    vi.advanceTimersByTime(PUSH_TOAST_MS - 100);
    showError('Another failure');
    vi.advanceTimersByTime(ERROR_ALERT_SECONDS * 1000 - 1);
    expect(currentToast()?.message).toBe('Order 4001205401 arrived');
    dismissError();
  });
});
