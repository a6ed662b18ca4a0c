/**
 * §4 confirmation, delivery and location icons with their meaning, shared by the status monitor,
 * the order details and the help screen's legend. Colour is never the only signal: every icon
 * carries its meaning as text (visible in the legend, as the accessible name elsewhere).
 */
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { IconState, ItemIcons } from '../../domain/tracking';

export type TrackingIconKind = keyof ItemIcons;
export const TRACKING_ICON_KINDS: readonly TrackingIconKind[] = ['confirmation', 'delivery', 'location'];

/** Which states each icon can take (§4). */
export const ICON_STATES_OF: Record<TrackingIconKind, readonly IconState[]> = {
  confirmation: ['green', 'yellow', 'missing'],
  delivery: ['green', 'yellow', 'grey', 'red', 'missing'],
  location: ['green', 'grey', 'missing'],
};

const glyphs: Record<TrackingIconKind, string> = {
  confirmation: 'M7 3h7l4 4v14H7zM14 3v4h4M9.5 14l2 2 3.5-4',
  delivery: 'M2 7h11v9H2zM13 10h4l3 3v3h-7M6 19a2 2 0 100-4 2 2 0 000 4zm11 0a2 2 0 100-4 2 2 0 000 4z',
  location: 'M12 21s-6-5.5-6-10.5a6 6 0 0112 0C18 15.5 12 21 12 21zm0-8a2.5 2.5 0 100-5 2.5 2.5 0 000 5z',
};

/**
 * A shape per state in a small badge on the icon's corner, so states differ by more than their
 * colour (WCAG 1.4.1; colour-blind users and a phone in the sun): done a check, under way a
 * clock, not applicable a dash, a problem an exclamation mark. Missing has the glyph struck out.
 */
const STATE_MARKS: Partial<Record<IconState, { shape: string; d: string }>> = {
  green: { shape: 'check', d: 'M3.6 6.1l1.6 1.6 3.2-3.4' },
  yellow: { shape: 'clock', d: 'M6 3.4V6l1.8 1.2' },
  grey: { shape: 'dash', d: 'M3.7 6h4.6' },
  red: { shape: 'exclamation', d: 'M6 3.3v3.1M6 8.6v.1' },
};

/**
 * An icon's accessible name, translated once per translation function (a language has its own):
 * the seed's first page of 20 orders draws 177 icons with 11 names, 354 i18next lookups of a
 * mid-range phone's first render before (#22).
 */
const labels = new WeakMap<TFunction, Map<string, string>>();
function labelOf(t: TFunction, kind: TrackingIconKind, state: IconState): string {
  let known = labels.get(t);
  if (!known) labels.set(t, (known = new Map()));
  const key = `${kind}.${state}`;
  let label = known.get(key);
  if (label === undefined) known.set(key, (label = `${t(`trackingIcons.${kind}.name`)}: ${t(`trackingIcons.${kind}.${state}`)}`));
  return label;
}

function Icon({ kind, state, size, t }: { kind: TrackingIconKind; state: IconState; size: number; t: TFunction }) {
  const label = labelOf(t, kind, state);
  const mark = STATE_MARKS[state];
  return (
    <span className={`track-icon state-${state}`} role="img" aria-label={label} title={label}>
      <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round">
        <path d={glyphs[kind]} />
        {state === 'missing' && <path d="M4 4l16 16" />}
      </svg>
      {mark && (
        <svg className="track-icon-badge" data-shape={mark.shape} width={12} height={12} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <circle cx={6} cy={6} r={5.25} />
          <path d={mark.d} />
        </svg>
      )}
    </span>
  );
}

export function TrackingIcon({ kind, state, size = 22 }: { kind: TrackingIconKind; state: IconState; size?: number }) {
  const { t } = useTranslation();
  return <Icon kind={kind} state={state} size={size} t={t} />;
}

/**
 * The three icons of one item in a row. The row's `t` is passed in: a page of the status monitor
 * draws 60–120 icons, and a translation hook for each was a tenth of its first render on a
 * mid-range phone (#22).
 */
export function TrackingIconSet({ icons, t }: { icons: ItemIcons; t: TFunction }) {
  return (
    <span className="track-icons">
      {TRACKING_ICON_KINDS.map((kind) => (
        <Icon key={kind} kind={kind} state={icons[kind]} size={22} t={t} />
      ))}
    </span>
  );
}

/** Every icon and state with its meaning (§2 /info legend, and the order details). */
export function TrackingIconLegend({ only }: { only?: ItemIcons }) {
  const { t } = useTranslation();
  return (
    <dl className="track-legend">
      {TRACKING_ICON_KINDS.map((kind) => (
        <div key={kind} className="track-legend-group">
          <dt>{t(`trackingIcons.${kind}.name`)}</dt>
          {(only ? [only[kind]] : ICON_STATES_OF[kind]).map((state) => (
            <dd key={state}>
              <TrackingIcon kind={kind} state={state} size={20} />
              <span>{t(`trackingIcons.${kind}.${state}`)}</span>
            </dd>
          ))}
        </div>
      ))}
    </dl>
  );
}
