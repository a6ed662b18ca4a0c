import { useTranslation } from 'react-i18next';
import { useRouteTitleKey } from './route-meta';

/** A screen whose content a later feature brings: its title, so navigation and the shell are real. */
export default function TitleOnlyScreen() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1 className="page-title route-title">{t(useRouteTitleKey())}</h1>
    </section>
  );
}
