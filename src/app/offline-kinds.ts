/**
 * The features' kinds of offline change, registered with the sync core before it starts: an
 * entry left in the outbox by a closed tab is handled right even before its screen is opened.
 */
import '../features/stock-count/offline/register';
import '../features/notifications/offline/register';
