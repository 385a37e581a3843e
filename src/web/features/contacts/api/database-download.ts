import type { DatabaseDownloadRequest, DatabaseDownloadSummary } from '@shared/database-download';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const databaseDownloadQueryKey = ['/api/database-download'] as const;

export function useDatabaseDownloadSummary() {
  return useQuery<DatabaseDownloadSummary>({ queryKey: databaseDownloadQueryKey });
}

/** The file name the server gave in Content-Disposition (a dated default otherwise). */
function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? 'tambari-contacts.csv';
}

/** Saves a response body as a file through a temporary link (a POST cannot be a plain download link). */
async function saveResponse(response: Response): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response);
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the blob goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the chosen lists' directory contacts; answers how many rows the file holds. */
export function useStartDatabaseDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: DatabaseDownloadRequest) => {
      const response = await apiRequest('POST', '/api/database-download', input);
      const rows = Number(response.headers.get('x-row-count') ?? 0);
      await saveResponse(response);
      return { rows, fileName: fileNameOf(response) };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: databaseDownloadQueryKey }),
  });
}
