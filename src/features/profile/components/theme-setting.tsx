/** The theme of this device (#21): as the system, light or dark; kept on the device. */
import { useTranslation } from 'react-i18next';
import { setTheme, useTheme, type ThemeChoice } from '../../../lib/theme';

const CHOICES: ThemeChoice[] = ['system', 'light', 'dark'];

export function ThemeSetting() {
  const { t } = useTranslation();
  const theme = useTheme();
  return (
    <fieldset className="segmented" aria-describedby="profile-theme-note">
      <legend className="visually-hidden">{t('profile.theme.label')}</legend>
      {CHOICES.map((choice) => (
        <label key={choice} className="segmented-option">
          <input type="radio" name="theme" value={choice} checked={theme === choice} onChange={() => setTheme(choice)} />
          <span>{t(`profile.theme.${choice}`)}</span>
        </label>
      ))}
      <p id="profile-theme-note" className="muted small">
        {t('profile.theme.note')}
      </p>
    </fieldset>
  );
}
