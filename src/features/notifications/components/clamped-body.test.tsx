/**
 * The fold button of a notification card names its card (#21 review): a screen reader listing the
 * buttons of a page hears which message each one unfolds, and the name starts with the words shown.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ClampedBody, FoldButton } from './clamped-body';

beforeAll(async () => {
  // The keys' own test texts: the button must ask for these keys, with the title as {{title}}.
  await i18next.use(initReactI18next).init({
    lng: 'en-US',
    resources: {
      'en-US': {
        translation: {
          notifications: { showMore: 'Show more', showLess: 'Show less', showMoreOf: 'Show more of “{{title}}”', showLessOf: 'Show less of “{{title}}”' },
        },
      },
    },
    interpolation: { escapeValue: false },
  });
});

/** The attributes of the one <button> in the markup, and its text. */
function buttonOf(html: string): { attributes: Record<string, string>; text: string } {
  const match = /<button ([^>]*)>([^<]*)<\/button>/.exec(html);
  expect(match, html).not.toBeNull();
  const attributes = Object.fromEntries([...match![1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!]));
  return { attributes, text: match![2]! };
}

const render = (title: string, expanded: boolean) =>
  buttonOf(renderToStaticMarkup(<FoldButton bodyId="notification-body-email-7" title={title} expanded={expanded} onToggle={() => undefined} />));

describe('FoldButton', () => {
  it('names the card it unfolds, starting with the words it shows', () => {
    const folded = render('Stock count 12 is due', false);
    expect(folded.text).toBe('Show more');
    expect(folded.attributes['aria-label']).toBe('Show more of “Stock count 12 is due”');
    expect(folded.attributes['aria-label']!.startsWith(folded.text)).toBe(true);
    expect(folded.attributes).toMatchObject({ 'aria-expanded': 'false', 'aria-controls': 'notification-body-email-7' });

    const unfolded = render('Stock count 12 is due', true);
    expect(unfolded.text).toBe('Show less');
    expect(unfolded.attributes['aria-label']).toBe('Show less of “Stock count 12 is due”');
    expect(unfolded.attributes['aria-expanded']).toBe('true');
  });

  it('gives two cards two names', () => {
    expect(render('Parcel 1 arrived', false).attributes['aria-label']).not.toBe(render('Parcel 2 arrived', false).attributes['aria-label']);
  });

  it('keeps the words shown as its name when the card has no title', () => {
    const untitled = render('  ', false);
    expect(untitled.attributes['aria-label']).toBeUndefined();
    expect(untitled.text).toBe('Show more');
  });
});

describe('ClampedBody', () => {
  it('shows the whole text and no button before it has measured the text (the fold is visual only)', () => {
    const html = renderToStaticMarkup(
      <ClampedBody id="b1" title="Stock count 12 is due">
        A long message
      </ClampedBody>,
    );
    expect(html).toBe('<p id="b1" class="notification-card-body clamped">A long message</p>');
  });
});
