import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fileUploadResult, type FileUploadResult } from '../../../contract/dashboard';
import { toSearchParams, userApi } from '../../../lib/api-client';
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fileDashboardQueries.all() }),
  });
}
