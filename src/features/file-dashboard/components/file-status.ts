import type { CompactRow, FileStatus } from '../../../contract/dashboard';

/** The five statuses in the order the bars and legends show them. */
export const STATUS_ORDER: readonly FileStatus[] = ['processed', 'errored', 'missing', 'in_progress', 'not_processed'];

export const COUNT_OF: Record<FileStatus, keyof CompactRow> = {
  processed: 'number_of_processed_files',
  errored: 'number_of_errored_files',
  missing: 'number_of_missing_files',
  in_progress: 'number_of_in_progress_files',
  not_processed: 'number_of_not_processed_files',
};

export const countOf = (row: CompactRow, status: FileStatus): number => Number(row[COUNT_OF[status]]);
