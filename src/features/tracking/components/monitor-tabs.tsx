import { useTranslation } from 'react-i18next';
import type { TrackingStatusPage } from '../../../contract/parts';
import type { MonitorTab } from '../hooks/use-monitor-state';

/**
 * Which tab counts are lower bounds (docs/decisions/0021: counts stop at 1,000): from the page
 * answering the status tabs and the one answering "My orders".
 */
export function cappedTabs(tabCounts: TrackingStatusPage | undefined, mineCounts: TrackingStatusPage | undefined): Partial<Record<MonitorTab, boolean>> {
  const capped = (page: TrackingStatusPage | undefined, name: NonNullable<TrackingStatusPage['counts_capped']>[number]) => Boolean(page?.counts_capped?.includes(name));
  return { all: capped(tabCounts, 'count_total'), arrived: capped(tabCounts, 'count_arrived'), incoming: capped(tabCounts, 'count_incoming'), mine: capped(mineCounts, 'count_total') };
}
import { TabBar } from '../../../components/ui/tab-bar';
import { useRovingTabs, type KeyboardSelection } from '../../../components/ui/roving-tabs';
import '../tracking.css';

/** §2 status monitor tabs with their counts; arrow keys move between tabs (WAI-ARIA tabs pattern). */
export function MonitorTabs({
  tabs,
  active,
  counts,
  capped = {},
  panelId,
  onSelect,
}: {
  tabs: readonly MonitorTab[];
  active: MonitorTab;
  counts: Partial<Record<MonitorTab, number>>;
  /** Counts that are lower bounds: shown as "1,000+". */
  capped?: Partial<Record<MonitorTab, boolean>>;
  panelId: string;
  /** `how`: given when the arrow keys chose the tab (not a click). */
  onSelect: (tab: MonitorTab, how?: KeyboardSelection) => void;
}) {
  const { t, i18n } = useTranslation();
  const shown = (tab: MonitorTab, count: number) =>
    capped[tab] ? t('lists.atLeast', { value: new Intl.NumberFormat(i18n.language).format(count) }) : count;
  const roving = useRovingTabs(tabs, onSelect);
  return (
    <TabBar label={t('tracking.tabsLabel')}>
      {tabs.map((tab, index) => (
        <button
          key={tab}
          ref={roving.ref(index)}
          type="button"
          role="tab"
          id={`monitor-tab-${tab}`}
          aria-selected={tab === active}
          aria-controls={panelId}
          tabIndex={tab === active ? 0 : -1}
          className="tab"
          onClick={() => onSelect(tab)}
          onKeyDown={(event) => roving.onKeyDown(event, index)}
        >
          <span>{t(`tracking.tab.${tab}`)}</span>
          {counts[tab] !== undefined && <span className="tab-count">{shown(tab, counts[tab])}</span>}
        </button>
      ))}
    </TabBar>
  );
}
