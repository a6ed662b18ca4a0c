import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonitorTab } from '../hooks/use-monitor-state';

/** §2 status monitor tabs with their counts; arrow keys move between tabs (WAI-ARIA tabs pattern). */
export function MonitorTabs({
  tabs,
  active,
  counts,
  panelId,
  onSelect,
}: {
  tabs: readonly MonitorTab[];
  active: MonitorTab;
  counts: Partial<Record<MonitorTab, number>>;
  panelId: string;
  onSelect: (tab: MonitorTab) => void;
}) {
  const { t } = useTranslation();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    refs.current[next]?.focus();
    onSelect(tabs[next]!);
  };
  return (
    <div className="tabs" role="tablist" aria-label={t('tracking.tabsLabel')}>
      {tabs.map((tab, index) => (
        <button
          key={tab}
          ref={(element) => {
            refs.current[index] = element;
          }}
          type="button"
          role="tab"
          id={`monitor-tab-${tab}`}
          aria-selected={tab === active}
          aria-controls={panelId}
          tabIndex={tab === active ? 0 : -1}
          className="tab"
          onClick={() => onSelect(tab)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          <span>{t(`tracking.tab.${tab}`)}</span>
          {counts[tab] !== undefined && <span className="tab-count">{counts[tab]}</span>}
        </button>
      ))}
    </div>
  );
}
