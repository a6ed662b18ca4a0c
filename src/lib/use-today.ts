/**
 * Today on this device (YYYY-MM-DD), drawn again at the next local midnight: a tablet left on one
 * screen overnight shows the new day in the top bar and takes it as the "today" of its forms.
 */
import { useEffect, useState } from 'react';
import dayjs from 'dayjs';

/** Milliseconds from `now` to the next local midnight (at least one second; days of 23 and 25 hours included). */
export function msToNextMidnight(now: Date = new Date()): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 0, 0, 0, 0);
  return Math.max(1000, next.getTime() - now.getTime());
}

export function useToday(): string {
  const [today, setToday] = useState(() => dayjs().format('YYYY-MM-DD'));
  useEffect(() => {
    // Armed again at every wake-up, whether the day changed or not (a clock set back, a new time
    // zone): the day is read, not counted.
    let timer = 0;
    const arm = () => {
      timer = window.setTimeout(() => {
        setToday(dayjs().format('YYYY-MM-DD'));
        arm();
      }, msToNextMidnight() + 500);
    };
    arm();
    return () => window.clearTimeout(timer);
  }, []);
  return today;
}
