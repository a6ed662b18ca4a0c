/** Inline line icons (24×24, currentColor). Decorative: labels are always given as text. */
import type { ReactElement } from 'react';

const paths: Record<string, ReactElement> = {
  status: <path d="M3 7l9-4 9 4-9 4-9-4zm0 0v10l9 4 9-4V7M12 11v10" />,
  priority: <path d="M12 21s-7-6.2-7-11.5A7 7 0 0119 9.5C19 14.8 12 21 12 21zm0-9a2.5 2.5 0 100-5 2.5 2.5 0 000 5z" />,
  stock: <path d="M4 20V9l8-5 8 5v11M8 20v-6h8v6M8 17h8" />,
  notifications: <path d="M6 16V11a6 6 0 1112 0v5l2 2H4l2-2zm4 4h4" />,
  users: <path d="M9 11a4 4 0 100-8 4 4 0 000 8zm-7 10v-1a6 6 0 0112 0v1m2-10a3 3 0 100-6m3 16v-1a5 5 0 00-3-4.6" />,
  stockCount: <path d="M9 4h6v3H9zM7 5H5v16h14V5h-2M8.5 12l2 2 4-4M8.5 17h7" />,
  profile: <path d="M12 12a4 4 0 100-8 4 4 0 000 8zm-8 9a8 8 0 0116 0" />,
  info: <path d="M12 22a10 10 0 100-20 10 10 0 000 20zm0-11v6m0-9.5v.5" />,
  dashboard: <path d="M4 20V10m6 10V4m6 16v-7m4 7H2" />,
  logout: <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />,
  more: (
    <g fill="currentColor" stroke="none">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </g>
  ),
  alert: <path d="M12 3l10 18H2L12 3zm0 6v5m0 3v.5" />,
  offline: <path d="M2 8.5a15 15 0 0120 0M5 12a10 10 0 0114 0M8.5 15.5a5 5 0 017 0M12 19h.01M3 3l18 18" />,
  close: <path d="M6 6l12 12M18 6L6 18" />,
  add: <path d="M12 5v14M5 12h14" />,
  search: <path d="M10.5 18a7.5 7.5 0 100-15 7.5 7.5 0 000 15zM21 21l-5.2-5.2" />,
  history: <path d="M3 12a9 9 0 109-9 9 9 0 00-7 3.3M3 3v4h4M12 7v5l3 3" />,
  upload: <path d="M12 16V4m-5 5l5-5 5 5M4 16v4h16v-4" />,
  microsoft: <path d="M3 3h8.5v8.5H3zM12.5 3H21v8.5h-8.5zM3 12.5h8.5V21H3zM12.5 12.5H21V21h-8.5z" />,
  google: <path d="M20.5 12.2c0-.6-.1-1.2-.2-1.7H12v3.4h4.8a4.1 4.1 0 01-1.8 2.7v2.2h2.9c1.7-1.6 2.6-3.9 2.6-6.6zM12 21c2.4 0 4.5-.8 5.9-2.2L15 16.6c-.8.5-1.8.9-3 .9a5.3 5.3 0 01-5-3.6H4v2.3A9 9 0 0012 21zM7 13.9a5.4 5.4 0 010-3.5V8.1H4a9 9 0 000 8.1l3-2.3zM12 6.6c1.3 0 2.5.5 3.4 1.3l2.6-2.6A9 9 0 004 8.1l3 2.3a5.3 5.3 0 015-3.8z" />,
};

export type IconName = keyof typeof paths;

export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  const filled = name === 'microsoft' || name === 'google';
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill={filled ? 'currentColor' : 'none'}
      stroke={filled ? 'none' : 'currentColor'}
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {paths[name]}
    </svg>
  );
}
