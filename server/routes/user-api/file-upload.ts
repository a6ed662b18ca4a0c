/**
 * POST /user_api/v1/dashboard/files?fileName=…: a stock admin or super manager hands in an ERP
 * extract (#9). The body is the file itself (text/csv, UTF-8, up to FILE_UPLOAD_MAX_BYTES). The
 * file is queued in one transaction and processed in the background like an inbox file:
 * 202 with its row (status not_processed), or 200 with the earlier row when the same content was
 * received before (it is never processed twice). A name outside the naming rule is a 400.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { errorBody } from '../../../src/contract/common';
import { FILE_UPLOAD_MAX_BYTES, fileUploadQuery, fileUploadResult } from '../../../src/contract/dashboard';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { runMutation } from '../../plugins/idempotency';
import { FileNameRefusal, registerFile } from '../../ingestion/queue';
import { toFileRow } from '../../repositories/file-processing';

const LIMIT_MB = FILE_UPLOAD_MAX_BYTES / (1024 * 1024);

async function readUtf8(payload: AsyncIterable<Buffer | string>): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > FILE_UPLOAD_MAX_BYTES) throw new HttpError(413, `The file is larger than ${LIMIT_MB} MB; split it into smaller files.`);
    parts.push(buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts));
  } catch {
    throw new HttpError(422, 'The file is not UTF-8 text. Export it from the ERP system as UTF-8 and send it again.');
  }
}

function requireCsv(request: FastifyRequest): Promise<void> {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'text/csv') throw new HttpError(415, `Send the file as text/csv (UTF-8)${mediaType ? `, not ${mediaType}` : ''}.`);
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > FILE_UPLOAD_MAX_BYTES) throw new HttpError(413, `The file is larger than ${LIMIT_MB} MB; split it into smaller files.`);
  return Promise.resolve();
}

export const fileUploadRoutes: FastifyPluginAsyncZod<{ db: Db; onFileQueued?: () => void }> = async (app, { db, onFileQueued }) => {
  app.addContentTypeParser('text/csv', { bodyLimit: FILE_UPLOAD_MAX_BYTES }, (_request: FastifyRequest, payload: IncomingMessage) => readUtf8(payload));

  app.post(
    '/dashboard/files',
    {
      config: { capability: 'fileIngestion.upload' },
      bodyLimit: FILE_UPLOAD_MAX_BYTES,
      onRequest: requireCsv,
      schema: {
        tags: ['file dashboard'],
        summary: 'Upload an ERP extract (ORDERS, DELIVERIES, STOCK, MATERIALS); it is queued and processed like an inbox file',
        consumes: ['text/csv'],
        querystring: fileUploadQuery,
        response: { 200: fileUploadResult, 202: fileUploadResult, 400: errorBody, 403: errorBody, 413: errorBody, 415: errorBody, 422: errorBody },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const content = request.body as string;
      const sent = await runMutation(db, request, reply, async (tx) => {
        try {
          const { file, duplicate } = await registerFile(tx, { fileName: request.query.fileName, content, source: 'upload', uploadedBy: user.email });
          return { status: duplicate ? 200 : 202, body: { duplicate, file: toFileRow(file) } };
        } catch (error) {
          if (error instanceof FileNameRefusal) throw new HttpError(400, error.message);
          throw error;
        }
      });
      onFileQueued?.();
      return sent;
    },
  );
};
