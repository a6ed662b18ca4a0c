import { createContext, useContext } from 'react';

/** The title key of the route being shown, provided by the shell. */
export const RouteTitleContext = createContext<string>('routes.statusMonitor');

export function useRouteTitleKey(): string {
  return useContext(RouteTitleContext);
}
