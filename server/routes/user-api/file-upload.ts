/**
 * POST /user_api/v1/dashboard/files?fileName=…: a stock admin or super manager hands in an ERP
 * extract (#9). The body is the file itself (text/csv, UTF-8, up to FILE_UPLOAD_MAX_BYTES). The
 * file is queued in one transaction and processed in the background like an inbox file:
 * 202 with its row (status not_processed), or 200 `duplicate` when the same content was received
 * before (it is never processed twice): with the earlier row when the caller may follow it
 * (mayFollow), else with only what the caller sent (duplicateOfAnother). A name outside the
 * naming rule is a 400.
 * The uploader writes with their own rights (#20, docs/decisions/0017): a file type they may not
 * upload, or any line outside their plants, is a 403 naming the lines, and nothing is queued.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { errorBody } from '../../../src/contract/common';
import { FILE_UPLOAD_MAX_BYTES, fileIdParams, fileRow, fileUploadQuery, fileUploadRefusal, fileUploadResult, type FileRow } from '../../../src/contract/dashboard';
import { can } from '../../../src/domain/permissions';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fileProcessing } from '../../db/schema';
import { requireUser } from '../../plugins/auth';
import { HttpError, permissionDenied } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { listedErrors, type LineError } from '../../ingestion/csv';
import { isRefusal, parseFileName, type FileNameParts } from '../../ingestion/formats';
import { coded, codedExtra, type Coded } from '../../ingestion/coded';
import { parseErpFile } from '../../ingestion/parse';
import { FileNameRefusal, registerFile, SCOPE_COLUMNS } from '../../ingestion/queue';
import { discard, FileTooLarge, filePieces, HasNul, NOT_UTF8, NotUtf8, saveUpload, type ReceivedFile } from '../../ingestion/received';
import { linesOutsideScope, uploadScopeOf } from '../../ingestion/upload-scope';
import { toFileRow } from '../../repositories/file-processing';

const LIMIT_MB = FILE_UPLOAD_MAX_BYTES / (1024 * 1024);

/**
 * The body as parsed: the file streamed to disk (#16). Its JSON (what the idempotency fingerprint
 * reads) is the content's checksum and size, so a replay with the same key and file matches.
 */
class UploadedFile {
  constructor(readonly file: ReceivedFile) {}
  toJSON() {
    return { checksum: this.file.checksum, size: this.file.size };
  }
}

async function receive(payload: IncomingMessage): Promise<UploadedFile> {
  try {
    return new UploadedFile(await saveUpload(payload, FILE_UPLOAD_MAX_BYTES));
  } catch (error) {
    if (error instanceof FileTooLarge) throw tooLarge();
    if (error instanceof NotUtf8) throw refusedWith(422, NOT_UTF8);
    if (error instanceof HasNul) throw refusedWith(422, error.refusal);
    throw error;
  }
}

/**
 * What can be refused before the body is read: the media type, a declared length over the limit,
 * and the file's name (a 64 MB upload is not streamed to disk to learn that its name is wrong).
 */
function requireCsv(request: FastifyRequest): Promise<void> {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'text/csv') throw new HttpError(415, `Send the file as text/csv (UTF-8)${mediaType ? `, not ${mediaType}` : ''}.`);
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > FILE_UPLOAD_MAX_BYTES) throw tooLarge();
  const fileName = (request.query as { fileName?: unknown } | undefined)?.fileName;
  if (typeof fileName === 'string') {
    const name = parseFileName(fileName);
    if (isRefusal(name)) throw refusedWith(400, name);
  }
  return Promise.resolve();
}

/** Lines named in the message itself; the body's `errors` lists more. */
const LINES_IN_MESSAGE = 5;

function scopeRefusal(errors: readonly LineError[]): HttpError {
  const shown = errors.slice(0, LINES_IN_MESSAGE).map((e) => (e.line === null ? e.message : `line ${e.line}: ${e.message}`));
  const more = errors.length > LINES_IN_MESSAGE ? `; and ${errors.length - LINES_IN_MESSAGE} more` : '';
  const lines = errors.length === 1 ? '1 line is' : `${errors.length} lines are`;
  // The app words the summary (erpOutsideScope) and lists `errors` under it, each worded too.
  return new HttpError(403, `Nothing was queued: ${lines} outside what you may change. ${shown.join('; ')}${more}.`, {
    code: 'erpOutsideScope',
    params: { count: errors.length },
    errors: listedErrors(errors),
  });
}

/** A refusal with its code and params, so the app words it in the reader's language. */
const refusedWith = (status: number, refusal: Coded) => new HttpError(status, refusal.message, codedExtra(refusal));

const tooLarge = () => refusedWith(413, coded('erpUploadTooLarge', { mb: LIMIT_MB }, `The file is larger than ${LIMIT_MB} MB; split it into smaller files.`));

type StoredFile = typeof fileProcessing.$inferSelect;

/**
 * Whether the caller may follow this file (its status, errors, name): its uploader, and readers
 * of the file dashboard (super managers of both kinds). Another uploader's file, or an inbox file,
 * is as unknown to a stock admin as a missing one (decision 0063): its errors name lines, plants
 * and e-mail addresses of the other's scope.
 */
const mayFollow = (user: { grants: readonly string[]; email: string }, row: Pick<StoredFile, 'uploadedBy'>): boolean =>
  can(user.grants, 'fileDashboard.read') || row.uploadedBy?.toLowerCase() === user.email.toLowerCase();

/**
 * The answer to a duplicate of a file the caller may not follow: nothing of the stored row (its
 * id, name, status, dates, errors), only what the caller sent. No id: there is nothing to follow.
 * `not_processed`: this upload is not processed (the earlier one was, or will be).
 */
function duplicateOfAnother(fileName: string, name: FileNameParts): FileRow {
  return {
    id: null,
    file_type: name.fileType,
    start_date: null,
    end_date: null,
    file_name: fileName,
    file_part_of_day: name.partOfDay,
    status: 'not_processed',
    errors: [],
    line_count: null,
    source: 'upload',
  };
}

export const fileUploadRoutes: FastifyPluginAsyncZod<{ db: Db; onFileQueued?: () => void }> = async (app, { db, onFileQueued }) => {
  app.addContentTypeParser('text/csv', { bodyLimit: FILE_UPLOAD_MAX_BYTES }, (_request: FastifyRequest, payload: IncomingMessage) => receive(payload));

  app.post(
    '/dashboard/files',
    {
      config: { capability: 'fileIngestion.upload' },
      bodyLimit: FILE_UPLOAD_MAX_BYTES,
      onRequest: requireCsv,
      // The temporary file goes once the answer is sent, whatever the answer.
      onResponse: async (request) => {
        if (request.body instanceof UploadedFile) await discard(request.body.file.path);
      },
      schema: {
        tags: ['file dashboard'],
        summary: 'Upload an ERP extract (ORDERS, DELIVERIES, STOCK, MATERIALS); it is queued and processed like an inbox file',
        consumes: ['text/csv'],
        querystring: fileUploadQuery,
        response: { 200: fileUploadResult, 202: fileUploadResult, 400: errorBody, 403: fileUploadRefusal, 413: errorBody, 415: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!(request.body instanceof UploadedFile)) throw new HttpError(400, 'Send the file as the body of the call.');
      const received = request.body.file;
      const name = parseFileName(request.query.fileName);
      if (isRefusal(name)) throw refusedWith(400, name);
      const scope = uploadScopeOf(user, name.fileType);
      if (scope.kind === 'refused') throw refusedWith(403, scope.reason);
      const sent = await runMutation(db, request, reply, async (tx) => {
        if (scope.kind === 'plants') {
          // Lines that do not parse are left to processing, which errors the file on them anyway.
          // A large file is read off the event loop (parse.ts), keeping only the columns the check needs.
          const read = await parseErpFile(filePieces(received.path), received.size, { fileType: name.fileType, stage: false, keep: SCOPE_COLUMNS });
          const outside = await linesOutsideScope(tx, user, name.fileType, read.records);
          if (outside.length > 0) throw scopeRefusal(outside);
        }
        try {
          const { file, duplicate } = await registerFile(tx, { fileName: request.query.fileName, content: received, source: 'upload', uploadedBy: user.email });
          if (!duplicate) return { status: 202, body: { duplicate, file: toFileRow(file) } };
          return { status: 200, body: { duplicate, file: mayFollow(user, file) ? toFileRow(file) : duplicateOfAnother(request.query.fileName, name) } };
        } catch (error) {
          if (error instanceof FileNameRefusal) throw refusedWith(400, error.refusal);
          throw error;
        }
      });
      onFileQueued?.();
      return sent;
    },
  );

  // The uploader follows their file to processed or errored (a stock admin does not read the
  // file dashboard, §6); readers of the file dashboard read any file.
  app.get(
    '/dashboard/files/:id',
    {
      // Uploaders or file dashboard readers (the read-only super manager uploads nothing): checked below.
      schema: {
        tags: ['file dashboard'],
        summary: 'One uploaded ERP file with its status and line-numbered errors: your own uploads (file dashboard readers: any file)',
        params: fileIdParams,
        response: { 200: fileRow, 400: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!can(user.grants, 'fileIngestion.upload') && !can(user.grants, 'fileDashboard.read')) throw permissionDenied('fileIngestion.upload');
      const [row] = await db.select().from(fileProcessing).where(eq(fileProcessing.id, request.params.id));
      // Another uploader's file is as unknown as a missing one.
      if (!row || !mayFollow(user, row)) {
        throw new HttpError(404, `No uploaded file ${request.params.id}`);
      }
      return toFileRow(row);
    },
  );
};
