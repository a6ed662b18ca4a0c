/**
 * The fields of each feedback form (§3), in the order they are shown. The wire shape and its
 * checks live in src/contract/feedback.ts; this only says how a person fills them in.
 */
import type { FeedbackType } from '../../../contract/feedback';

export type FieldKind = 'plant' | 'text' | 'code' | 'textarea' | 'quantity' | 'rating' | 'email' | 'tel';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
}

const f = (name: string, kind: FieldKind, required = true): FormField => ({ name, kind, required });

export const FORM_FIELDS: Record<FeedbackType, FormField[]> = {
  Feedback: [f('rating', 'rating'), f('openFeedback', 'textarea', false)],
  ReportIssue: [f('plant', 'plant', false), f('page', 'text', false), f('description', 'textarea')],
  RequestUpdateOrder: [f('plant', 'plant', false), f('serviceOrder', 'code'), f('message', 'textarea')],
  RequestStockTransfer: [
    f('plant', 'plant'),
    f('storageLocationFrom', 'code'),
    f('storageLocationTo', 'code'),
    f('materialCode', 'code'),
    f('quantity', 'quantity'),
    f('comment', 'textarea', false),
  ],
  ReportStockDifference: [
    f('plant', 'plant'),
    f('storageLocation', 'code'),
    f('materialCode', 'code'),
    f('bookQuantity', 'quantity'),
    f('countedQuantity', 'quantity'),
    f('comment', 'textarea', false),
  ],
  RequestUpdateAccessPointContactNotification: [
    f('plant', 'plant', false),
    f('shipToPartyCode', 'code'),
    f('accessPointId', 'code'),
    f('contactEmail', 'email'),
    f('contactPhone', 'tel', false),
    f('comment', 'textarea', false),
  ],
};

/** §4: the selected report form is null or one of the feedback types; the last one is remembered. */
export const LAST_FORM_KEY = 'feedbackForm';
