/**
 * §9 date formats, in one place (decision 0020): content dates `YYYY-MM-DD` in every locale,
 * content times `YYYY-MM-DD HH:mm`; a stock count's "created" is a long date with time and a
 * deadline a long date, both in the user's language; the top bar keeps `dddd.DD.MM.YYYY`
 * with the localized day name.
 */
import dayjs, { type ConfigType } from 'dayjs';

export const DATE_FORMATS = {
  content: 'YYYY-MM-DD',
  contentTime: 'YYYY-MM-DD HH:mm',
  topBar: 'dddd.DD.MM.YYYY',
  created: 'LLL',
  deadline: 'LL',
} as const;

/** A date of the content: an ETA, a delivery date, an expiration date. */
export const formatDate = (value: ConfigType) => dayjs(value).format(DATE_FORMATS.content);
/** A moment of the content: a last login, a goods receipt, a decision. */
export const formatDateTime = (value: ConfigType) => dayjs(value).format(DATE_FORMATS.contentTime);
/** A stock count's "created": long date with time, per locale. */
export const formatCreated = (value: ConfigType) => dayjs(value).format(DATE_FORMATS.created);
/** A stock count's deadline (should_be_done_at): long date, per locale. */
export const formatDeadline = (value: ConfigType) => dayjs(value).format(DATE_FORMATS.deadline);
/** A day heading: the localized day name, then the content date. */
export const formatDayHeading = (value: ConfigType) => `${dayjs(value).format('dddd')} ${formatDate(value)}`;
