import { describe, expect, it } from 'vitest';
import { deviceName, needsGestureForPermission, pushAction, pushWanted, shownDeviceName } from './device';

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
};

describe('push device', () => {
  it('names the device as OS / browser', () => {
    expect(deviceName(UA.iphone, 5)).toBe('iOS / Safari');
    expect(deviceName(UA.macSafari, 0)).toBe('macOS / Safari');
    expect(deviceName(UA.macSafari, 5)).toBe('iPadOS / Safari');
    expect(deviceName(UA.androidChrome, 5)).toBe('Android / Chrome');
    expect(deviceName(UA.windowsEdge, 0)).toBe('Windows / Edge');
    expect(deviceName(UA.linuxFirefox, 0)).toBe('Linux / Firefox');
  });

  it('leaves out what the browser does not tell, and stores no English "Unknown" (the settings word it)', () => {
    expect(deviceName('Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15', 0)).toBe('Safari');
    expect(deviceName('Mozilla/5.0 (Linux x86_64) SomeBrowser/1.0', 0)).toBe('Linux');
    expect(deviceName('curl/8.5.0', 0)).toBe('');
    expect(deviceName('', 0)).toBe('');
  });

  it('shows a stored name without the English of older registrations, empty when nothing is known', () => {
    expect(shownDeviceName('Android / Chrome')).toBe('Android / Chrome');
    expect(shownDeviceName('Chrome')).toBe('Chrome');
    expect(shownDeviceName('Unknown OS / Chrome')).toBe('Chrome');
    expect(shownDeviceName('Linux / Unknown browser')).toBe('Linux');
    expect(shownDeviceName('Unknown OS / Unknown browser')).toBe('');
    expect(shownDeviceName('')).toBe('');
  });

  it('wants this device for push when either recipient has push on (the server sends for both)', () => {
    expect(pushWanted([{ pushNotificationsEnabled: true }, { pushNotificationsEnabled: false }])).toBe(true);
    expect(pushWanted([{ pushNotificationsEnabled: false }, { pushNotificationsEnabled: true }])).toBe(true);
    expect(pushWanted([{ pushNotificationsEnabled: false }, { pushNotificationsEnabled: false }])).toBe(false);
    expect(pushWanted(undefined)).toBe(false);
  });

  it('registers when allowed, asks when undecided, says when blocked, and does nothing when push is off or unsupported', () => {
    expect(pushAction(true, 'granted')).toBe('register');
    expect(pushAction(true, 'default')).toBe('ask');
    expect(pushAction(true, 'denied')).toBe('blocked');
    expect(pushAction(true, 'unsupported')).toBe('none');
    for (const permission of ['granted', 'default', 'denied', 'unsupported'] as const) expect(pushAction(false, permission)).toBe('none');
  });
});

describe('asking for notification permission', () => {
  it('only from a click in Safari, the iOS app and Firefox; Chromium browsers with their own bubble', () => {
    expect(needsGestureForPermission('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe(true);
    expect(needsGestureForPermission('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')).toBe(true);
    expect(needsGestureForPermission('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(true);
    expect(needsGestureForPermission('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36')).toBe(false);
    expect(needsGestureForPermission('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0')).toBe(false);
  });
});
