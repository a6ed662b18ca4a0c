/** The browser's bars (theme-color) follow the theme: the system's scheme, or the choice on the profile. */
import { describe, expect, it } from 'vitest';
import { THEME_COLORS, themeColor } from './theme';

const LIGHT_MEDIA = '(prefers-color-scheme: light)';
const DARK_MEDIA = '(prefers-color-scheme: dark)';

describe('themeColor', () => {
  it('keeps each scheme’s meta on its own colour when the app follows the system', () => {
    expect(themeColor('system', LIGHT_MEDIA, true)).toBe(THEME_COLORS.light);
    expect(themeColor('system', DARK_MEDIA, false)).toBe(THEME_COLORS.dark);
  });

  it('follows the system’s scheme now on a meta without media', () => {
    expect(themeColor('system', null, true)).toBe(THEME_COLORS.dark);
    expect(themeColor('system', null, false)).toBe(THEME_COLORS.light);
  });

  it('writes an explicit choice into every meta, whatever the system says', () => {
    for (const media of [LIGHT_MEDIA, DARK_MEDIA, null]) {
      expect(themeColor('dark', media, false)).toBe(THEME_COLORS.dark);
      expect(themeColor('light', media, true)).toBe(THEME_COLORS.light);
    }
  });
});
