/**
 * The browser replaced or dropped this registration's push subscription (pushsubscriptionchange:
 * keys rotated, the endpoint expired). The FCM token the server holds is tied to the old
 * subscription, so pushes stop until the page runs its registration again
 * (src/features/profile/push/push-registration.ts: Firebase's getToken sees the new endpoint and
 * makes a new token, which is saved in the settings). The worker cannot do that itself (no
 * Firebase and no sign-in here): it subscribes again with the same options, best effort, and tells
 * the open windows to register now. With no window open, nothing is kept: every start of the
 * signed-in app registers this device again anyway (push on, permission granted).
 */

/** The part of a PushSubscription this needs (a fake in tests). */
export interface OldSubscription {
  options: { applicationServerKey: ArrayBuffer | null; userVisibleOnly: boolean };
}

/** The part of a PushManager this needs. */
export interface Subscriber {
  subscribe(options: PushSubscriptionOptionsInit): Promise<unknown>;
}

/**
 * A subscription with the old one's options, unless the browser made one already ('kept') or
 * there is nothing to go by ('none': some browsers give no old subscription, or no key with it).
 * 'failed' too when the permission was withdrawn: the page's next registration says so.
 */
export async function renewSubscription(
  event: { oldSubscription: OldSubscription | null; newSubscription: unknown },
  pushManager: Subscriber,
): Promise<'kept' | 'renewed' | 'none' | 'failed'> {
  if (event.newSubscription) return 'kept';
  const options = event.oldSubscription?.options;
  if (!options?.applicationServerKey) return 'none';
  try {
    await pushManager.subscribe({ userVisibleOnly: options.userVisibleOnly, applicationServerKey: options.applicationServerKey });
    return 'renewed';
  } catch (error) {
    console.warn('Subscribing again for push failed', error);
    return 'failed';
  }
}

/** What the worker posts to every open window: register this device for push again. */
export const PUSH_SUBSCRIPTION_CHANGED = 'PUSH_SUBSCRIPTION_CHANGED';
