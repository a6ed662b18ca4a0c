/** The submit dialog says how many of how many materials are counted, in the plural form the total needs. */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { SubmitDialog } from './submit-dialog';

// The plural forms the locales are to hold (stockCount.submitText_one / _other), and Czech's four.
beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'en-US',
    resources: {
      'en-US': { translation: { stockCount: { submitText_one: '{{counted}} of {{total}} material is counted.', submitText_other: '{{counted}} of {{total}} materials are counted.' } } },
      'cs-CZ': {
        translation: {
          stockCount: { submitText_one: 'one {{counted}}/{{total}}', submitText_few: 'few {{counted}}/{{total}}', submitText_many: 'many {{counted}}/{{total}}', submitText_other: 'other {{counted}}/{{total}}' },
        },
      },
    },
    interpolation: { escapeValue: false },
  });
});

const render = (counted: number, total: number) =>
  renderToStaticMarkup(<SubmitDialog open stockCountId={5} counted={counted} total={total} bookMoved={0} online onConfirm={() => undefined} onClose={() => undefined} />);

describe('SubmitDialog', () => {
  it('uses the singular for one material and the plural for more', () => {
    expect(render(1, 1)).toContain('<p>1 of 1 material is counted.</p>');
    expect(render(0, 1)).toContain('<p>0 of 1 material is counted.</p>');
    expect(render(3, 4)).toContain('<p>3 of 4 materials are counted.</p>');
  });

  it('picks the plural form by the total in a language of more forms', async () => {
    await i18next.changeLanguage('cs-CZ');
    try {
      expect(render(1, 1)).toContain('<p>one 1/1</p>');
      expect(render(2, 3)).toContain('<p>few 2/3</p>');
      expect(render(4, 5)).toContain('<p>other 4/5</p>');
    } finally {
      await i18next.changeLanguage('en-US');
    }
  });
});
