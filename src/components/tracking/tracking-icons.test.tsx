/** §4 tracking icons: each state has its own shape, not only its own colour (WCAG 1.4.1). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IconState } from '../../domain/tracking';
import { ICON_STATES_OF, TRACKING_ICON_KINDS, TrackingIcon } from './tracking-icons';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

/** The icon's drawing without its colour class and name: what someone who cannot tell the colours apart sees. */
const drawing = (html: string) => html.replace(/ class="track-icon state-\w+"/, '').replace(/ (aria-label|title)="[^"]*"/g, '');

describe('TrackingIcon', () => {
  it.each(TRACKING_ICON_KINDS)('draws every state of the %s icon differently apart from its colour', (kind) => {
    const drawings = ICON_STATES_OF[kind].map((state) => drawing(renderToStaticMarkup(<TrackingIcon kind={kind} state={state} />)));
    expect(new Set(drawings).size).toBe(drawings.length);
  });

  it.each([
    ['green', 'check'],
    ['yellow', 'clock'],
    ['grey', 'dash'],
    ['red', 'exclamation'],
  ] as Array<[IconState, string]>)('marks %s with a %s badge of 12 px, keeping the glyph’s size', (state, shape) => {
    const html = renderToStaticMarkup(<TrackingIcon kind="delivery" state={state} size={22} />);
    expect(html).toContain(`<svg class="track-icon-badge" data-shape="${shape}" width="12" height="12"`);
    expect(html).toContain('width="22" height="22"');
  });
});
