/**
 * An ERP file's error or refusal worded for a reader (decision 0074): `message` in English (API
 * callers, logs, the stored row), and `code` with `params` that the app words in the reader's
 * language (serverErrors.<code>, as every coded refusal; decision 0055). A message without a code
 * (a database error's own words) is shown as it is.
 */
export interface Coded {
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}

export const coded = (code: string, params: Record<string, string | number>, message: string): Coded => ({ message, code, params });

/** A refusal as an HttpError's `extra` (the body's code and params beside its message). */
export const codedExtra = (refusal: Coded): Record<string, unknown> => (refusal.code ? { code: refusal.code, params: refusal.params ?? {} } : {});
