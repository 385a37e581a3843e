import type { SignInFailure } from '@shared/admin';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

export const signInFailuresQueryKey = ['/api/admin/security/sign-in-failures'] as const;

export interface SignInFailuresPage {
  entries: SignInFailure[];
  total: number;
  page: number;
  pageSize: number;
}

/** Failed sign-ins per address, newest attempt first; `lockedOnly` keeps the addresses locked now. */
export function useSignInFailures(page: number, lockedOnly: boolean) {
  return useQuery<SignInFailuresPage>({
    queryKey: [...signInFailuresQueryKey, { page, lockedOnly }],
    queryFn: ({ signal }) =>
      getJson<SignInFailuresPage>(
        `/api/admin/security/sign-in-failures${buildQueryString({ page, lockedOnly: lockedOnly ? 'true' : undefined })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Lifts an address's lock and forgets its failures (recorded in the audit log). */
export function useClearSignInLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (email: string): Promise<{ message: string }> => {
      const res = await apiRequest('POST', '/api/admin/security/sign-in-failures/clear', { email });
      return (await res.json()) as { message: string };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInFailuresQueryKey }),
  });
}
