/**
 * §3/§9 feedback forms and GET/POST /user_api/v1/feedback (§7). One body per form, chosen by
 * `type` (the six feedback types of §9); every message is the §5 wording the browser shows
 * as it comes ('Field <field> is required', the quantity, e-mail and mobile messages).
 */
import { z } from './zod';
import { FEEDBACK_TYPES, MESSAGES } from '../domain/constants';
import { maxResultsParam, pageEnvelope, pageParam } from './common';

export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

export const FEEDBACK_TEXT_MAX = 2000;
export const FEEDBACK_RATING_MAX = 5;

const required = (field: string) => `Field ${field} is required`;

/** A required text field: trimmed, not empty, with a sane length. */
const text = (field: string, max = 200) =>
  z
    .string({ message: required(field) })
    .check(z.trim(), z.minLength(1, required(field)), z.maxLength(max, `Field ${field} must be ${max} characters or less`));
const optionalText = (field: string, max = FEEDBACK_TEXT_MAX) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, `Field ${field} must be ${max} characters or less`)));

const code = (field: string) => text(field, 40).check(z.regex(/^[A-Za-z0-9/._-]+$/, `Field ${field} may hold letters, digits and / . _ - only`));

/** §5: 'Quantity should be greater than 0' (transfers), 'greater than or equal to 0' (counted quantities). */
const positiveQuantity = z
  .number({ message: 'Quantity should be greater than 0' })
  .check(z.gt(0, 'Quantity should be greater than 0'), z.lte(1_000_000, 'Quantity must be 1,000,000 or less'));
const countedQuantity = (field: string) =>
  z
    // Left empty: required; typed but no number (-1, abc): the rule it breaks, not "required".
    .number({ error: (issue) => (issue.input === undefined ? required(field) : 'Quantity should be greater than or equal to 0') })
    .check(z.gte(0, 'Quantity should be greater than or equal to 0'), z.lte(1_000_000, 'Quantity must be 1,000,000 or less'));

/** §5 e-mail (the domain is not limited here: contacts of access points are outside the company). */
const email = z.pipe(
  z
    .string({ message: required('contactEmail') })
    .check(z.trim(), z.minLength(1, required('contactEmail')), z.regex(/^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/, MESSAGES.emailFormat)),
  z.transform((value: string) => value.toLowerCase()),
);

/** §5 mobile number: + and at least 3 digits (spaces allowed while typing, removed here). */
const mobile = z
  .pipe(
    z.string(),
    z.transform((value: string) => value.replace(/[\s()-]/g, '')),
  )
  .check(z.refine((value) => /^\+\d{3,15}$/.test(value), MESSAGES.mobileNumber));

const plant = text('plant', 10);

export const feedbackBody = z
  .discriminatedUnion(
    'type',
    [
      z.object({
        type: z.literal('Feedback'),
        rating: z
          .number({ message: required('rating') })
          .check(
            z.int('Field rating must be a whole number'),
            z.gte(1, `Field rating must be between 1 and ${FEEDBACK_RATING_MAX}`),
            z.lte(FEEDBACK_RATING_MAX, `Field rating must be between 1 and ${FEEDBACK_RATING_MAX}`),
          ),
        openFeedback: optionalText('openFeedback'),
      }),
      z.object({
        type: z.literal('ReportIssue'),
        plant: z.optional(plant),
        page: optionalText('page', 200),
        description: text('description', FEEDBACK_TEXT_MAX),
      }),
      z.object({
        type: z.literal('RequestUpdateOrder'),
        plant: z.optional(plant),
        serviceOrder: code('serviceOrder'),
        message: text('message', FEEDBACK_TEXT_MAX),
      }),
      z.object({
        type: z.literal('RequestStockTransfer'),
        plant,
        storageLocationFrom: code('storageLocationFrom'),
        storageLocationTo: code('storageLocationTo'),
        materialCode: code('materialCode'),
        quantity: positiveQuantity,
        comment: optionalText('comment'),
      }),
      z.object({
        type: z.literal('ReportStockDifference'),
        plant,
        storageLocation: code('storageLocation'),
        materialCode: code('materialCode'),
        bookQuantity: countedQuantity('bookQuantity'),
        countedQuantity: countedQuantity('countedQuantity'),
        comment: optionalText('comment'),
      }),
      z.object({
        type: z.literal('RequestUpdateAccessPointContactNotification'),
        plant: z.optional(plant),
        shipToPartyCode: code('shipToPartyCode'),
        accessPointId: code('accessPointId'),
        contactEmail: email,
        contactPhone: z.optional(mobile),
        comment: optionalText('comment'),
      }),
    ],
    { message: `Feedback type must be one of ${FEEDBACK_TYPES.join(', ')}` },
  )
  .check(
    z.superRefine((body, context) => {
      if (body.type === 'RequestStockTransfer' && body.storageLocationFrom === body.storageLocationTo) {
        context.addIssue({ code: 'custom', path: ['storageLocationTo'], message: 'Storage location to must differ from storage location from' });
      }
    }),
  )
  .register(z.globalRegistry, { id: 'FeedbackRequest' });
export type FeedbackBody = z.infer<typeof feedbackBody>;
export type FeedbackInput = z.input<typeof feedbackBody>;

/** One sent feedback: the form's fields as sent (without `type`), newest first. */
export const feedbackItem = z
  .object({
    id: z.string(),
    type: z.enum(FEEDBACK_TYPES),
    plant: z.nullable(z.string()),
    created: z.string(),
    payload: z.record(z.string(), z.unknown()),
  })
  .register(z.globalRegistry, { id: 'Feedback' });
export type FeedbackItem = z.infer<typeof feedbackItem>;

export const feedbackListQuery = z.object({
  page: pageParam,
  maxResults: maxResultsParam(100),
  type: z.optional(z.enum(FEEDBACK_TYPES, { message: `type must be one of ${FEEDBACK_TYPES.join(', ')}` })),
});
export type FeedbackListQuery = z.input<typeof feedbackListQuery>;

export const feedbackPage = z.object({ ...pageEnvelope, items: z.array(feedbackItem) }).register(z.globalRegistry, { id: 'FeedbackPage' });
export type FeedbackPage = z.infer<typeof feedbackPage>;

/** §6: the plants a caller may name in a form (own plants; super managers: every plant). */
export const feedbackPlants = z
  .object({ plants: z.array(z.object({ code: z.string(), name: z.string() })) })
  .register(z.globalRegistry, { id: 'FeedbackPlants' });
export type FeedbackPlants = z.infer<typeof feedbackPlants>;
