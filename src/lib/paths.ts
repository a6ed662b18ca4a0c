/** Paths that screens outside the route table need to know (login flow of §4). */
export const HOME_PATH = '/status-monitor';
