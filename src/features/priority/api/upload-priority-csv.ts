import { HTTPError } from 'ky';
import { uploadRefusal, uploadResult, type UploadLineError, type UploadResult } from '../../../contract/priority';
import type { PriorityUploadKind } from '../../../domain/priority';
import { bodyMessage, errorMessage, userApi } from '../../../lib/api-client';
import { sendOnce } from '../../../lib/send-once';

const PATHS: Record<PriorityUploadKind, string> = {
  add: 'uap_priority/uploads/add',
  disable: 'uap_priority/uploads/disable',
  shipToParty: 'ship_to_party_codes/uploads',
};

/** The server refused the file or some rows (422): its message (in the user's language when coded) and every error with its line. */
export class UploadRefused extends Error {
  constructor(
    message: string,
    readonly errors: UploadLineError[],
  ) {
    super(message);
  }
}

/**
 * No answer came (no connection, a time-out, a server error): an apply may or may not have
 * happened. The same file applied again goes under the same Idempotency-Key (sendOnce), also after
 * the dialog was closed and opened again: it is applied once.
 */
export class UploadUnanswered extends Error {}

/** The file's bytes as SHA-256 hex: what makes an apply "the same file" for its key (not its name or date). */
async function digestOf(file: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * POST the file's bytes as they are (not file.text(), which would hide bytes that are not UTF-8
 * behind replacement characters) to the upload of `kind`. A dry run writes nothing.
 */
export async function uploadPriorityCsv(
  kind: PriorityUploadKind,
  file: Blob,
  options: { dryRun: boolean },
): Promise<UploadResult> {
  const post = async (key?: string) =>
    uploadResult.parse(
      await userApi
        .post(PATHS[kind], {
          body: file,
          headers: { 'content-type': 'text/csv; charset=utf-8', ...(key ? { 'idempotency-key': key } : {}) },
          searchParams: options.dryRun ? { dryRun: 'true' } : undefined,
          timeout: 120_000,
        })
        .json(),
    );
  try {
    // A dry run writes nothing: no key. An apply is sent once per file content (sendOnce).
    return options.dryRun ? await post() : await sendOnce('priority', PATHS[kind], await digestOf(file), post);
  } catch (error) {
    if (error instanceof HTTPError && error.response.status === 422) {
      const body: unknown = await error.response.clone().json().catch(() => null);
      const refusal = uploadRefusal.safeParse(body);
      // Worded from the whole body: the parsed refusal has no code and params (serverErrors.<code>).
      if (refusal.success) throw new UploadRefused(bodyMessage(body) ?? refusal.data.message, refusal.data.errors);
    }
    const answered = error instanceof HTTPError && error.response.status < 500;
    throw answered ? new Error(await errorMessage(error)) : new UploadUnanswered(await errorMessage(error));
  }
}
