/**
 * The features' kinds of offline change, registered with the sync core before it starts: an
 * entry left in the outbox by a closed tab is handled right even before its screen is opened.
 * Loaded after the first screen rather than with it (#22): the count sheet's offline code and
 * its schemas (`contract/stock`) are a chunk of their own that the sync start waits for.
 */
export function loadOfflineKinds(): Promise<unknown> {
  return Promise.all([import('../features/stock-count/offline/register'), import('../features/notifications/offline/register')]);
}
