import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fileRow, fileUploadResult, type FileRow, type FileUploadResult } from '../../../contract/dashboard';
import { statusOf, toSearchParams, userApi } from '../../../lib/api-client';
import { fileDashboardQueries } from './dashboard-views';

/** POST /user_api/v1/dashboard/files?fileName=…: the file itself as text/csv (#9). */
export const uploadErpFile = async (file: File): Promise<FileUploadResult> =>
  fileUploadResult.parse(
    await userApi
      .post('dashboard/files', {
        searchParams: toSearchParams({ fileName: file.name }),
        headers: { 'content-type': 'text/csv; charset=utf-8' },
        body: file,
        // A big file takes a while to send; the server answers as soon as it is queued.
        timeout: 5 * 60_000,
      })
      .json(),
  );

export function useUploadErpFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadErpFile,
    // The form says why under its button, with the refused lines: not a second alert on top.
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fileDashboardQueries.all() }),
  });
}

/** How often an uploaded file is asked for while it waits or is processed. */
const FOLLOW_MS = 5_000;

/** GET /user_api/v1/dashboard/files/:id: one file the caller uploaded (file dashboard readers: any). */
export const getUploadedFile = async (id: string): Promise<FileRow> => fileRow.parse(await userApi.get(`dashboard/files/${encodeURIComponent(id)}`).json());

/**
 * When an uploaded file is asked for next: until it is processed or errored; not a file the caller
 * may not follow (another's, 404; 403). A failed read of the moment (no connection, a 502 while
 * the server is replaced) is asked again at the next turn: one failure no longer left the card on
 * "Waiting" for good.
 */
export function followInterval(state: { data?: FileRow; error: unknown }): number | false {
  const refused = statusOf(state.error);
  if (refused === 403 || refused === 404) return false;
  const status = state.data?.status;
  return status === 'processed' || status === 'errored' ? false : FOLLOW_MS;
}

/** The uploaded file followed until it is processed or errored (a stock admin does not read the file dashboard). */
export function useUploadedFile(id: string | null) {
  return useQuery({
    queryKey: ['uploaded-file', id],
    queryFn: () => getUploadedFile(id!),
    enabled: id !== null,
    refetchInterval: (query) => followInterval(query.state),
    retry: false,
    meta: { silent: true },
  });
}
