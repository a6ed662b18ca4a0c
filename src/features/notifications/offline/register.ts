/**
 * The notifications' kind of offline change: read marks. §8: a failed read mark is only logged,
 * so a refused one (e.g. the notification is gone) is dropped instead of waiting for the user.
 */
import { registerKind } from '../../../offline/registry';
import { READ_KIND } from '../api/notifications';

registerKind({ kind: READ_KIND, dropWhenRefused: true });
