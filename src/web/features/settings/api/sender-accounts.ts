import type { SenderDefaults } from '@shared/platform-settings';
import type {
  ConnectionTestResult,
  SenderAccount,
  SenderAccountInput,
  SenderPreset,
  SenderTrustCertificateInput,
} from '@shared/sending';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** Every sender-account query (the list, the presets) sits under this prefix. */
export const senderAccountsQueryKey = ['/api/sender-accounts'] as const;
export const senderPresetsQueryKey = [...senderAccountsQueryKey, 'presets'] as const;

const accountPath = (id: string) => `/api/sender-accounts/${encodeURIComponent(id)}`;

export function useSenderAccounts() {
  return useQuery<SenderAccount[]>({ queryKey: senderAccountsQueryKey });
}

/** Provider presets; the "Tambari test mailbox" is among them only while the development mailbox runs. */
/** The daily cap and warm-up a new account starts with (the operator sets them in Admin → Settings). */
export function useSenderDefaults() {
  return useQuery<SenderDefaults>({
    queryKey: [...senderAccountsQueryKey, 'defaults'],
    staleTime: 5 * 60_000,
  });
}

export function useSenderPresets() {
  return useQuery<SenderPreset[]>({ queryKey: senderPresetsQueryKey, staleTime: 5 * 60_000 });
}

/** Puts a saved account into the cached list at once (the refetch that follows confirms it). */
function storeAccount(queryClient: QueryClient, saved: SenderAccount) {
  queryClient.setQueryData<SenderAccount[]>(senderAccountsQueryKey, (current) => {
    if (!current) return current;
    const index = current.findIndex((account) => account.id === saved.id);
    if (index === -1) return [...current, saved];
    return current.map((account) => (account.id === saved.id ? saved : account));
  });
}

function refreshAccounts(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: senderAccountsQueryKey, exact: true });
}

function useAccountMutation<TInput>(run: (input: TInput) => Promise<SenderAccount>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (saved) => {
      storeAccount(queryClient, saved);
      void refreshAccounts(queryClient);
    },
  });
}

async function readAccount(res: Response): Promise<SenderAccount> {
  return (await res.json()) as SenderAccount;
}

export function useCreateSenderAccount() {
  return useAccountMutation(async (input: SenderAccountInput) =>
    readAccount(await apiRequest('POST', '/api/sender-accounts', input)),
  );
}

export function useUpdateSenderAccount() {
  const queryClient = useQueryClient();
  return useAccountMutation(async ({ id, input }: { id: string; input: SenderAccountInput }) => {
    const account = readAccount(await apiRequest('PATCH', accountPath(id), input));
    // An open inbox conversation shows this account's reply signature.
    void queryClient.invalidateQueries({ queryKey: ['/api/inbox', 'thread'] });
    return account;
  });
}

/** Pauses (`paused: true`) or resumes an account. */
export function useSetSenderAccountPaused() {
  return useAccountMutation(async ({ id, paused }: { id: string; paused: boolean }) =>
    readAccount(await apiRequest('POST', `${accountPath(id)}/${paused ? 'pause' : 'resume'}`)),
  );
}

/** Runs the SPF, DKIM, DMARC and MX checks again; the answer carries the fresh `domainCheck`. */
export function useCheckSenderDomain() {
  return useAccountMutation(async (id: string) =>
    readAccount(await apiRequest('POST', `${accountPath(id)}/check-domain`)),
  );
}

/** One click: a sender account on the built-in development mailbox (404 when it does not run). */
export function useAddDevMailboxAccount() {
  return useAccountMutation(async () =>
    readAccount(await apiRequest('POST', '/api/sender-accounts/dev-mailbox')),
  );
}

export function useDeleteSenderAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      await apiRequest('DELETE', accountPath(id));
    },
    onSuccess: (_, id) => {
      queryClient.setQueryData<SenderAccount[]>(senderAccountsQueryKey, (current) =>
        current?.filter((account) => account.id !== id),
      );
      void refreshAccounts(queryClient);
    },
  });
}

/**
 * Tests settings before they are saved. While editing, `accountId` lets the server use the stored
 * passwords for the ones left blank.
 */
export function useTestSenderSettings() {
  return useMutation({
    mutationFn: async (
      input: SenderAccountInput & {
        accountId?: string;
        smtpTrustFingerprint?: string;
        imapTrustFingerprint?: string;
      },
    ): Promise<ConnectionTestResult> => {
      const res = await apiRequest('POST', '/api/sender-accounts/test', input);
      return (await res.json()) as ConnectionTestResult;
    },
  });
}

/** Tests a saved account; its status may change (a failing account that connects again), so refetch. */
export function useTestSenderAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<ConnectionTestResult> => {
      const res = await apiRequest('POST', `${accountPath(id)}/test`);
      return (await res.json()) as ConnectionTestResult;
    },
    onSettled: () => refreshAccounts(queryClient),
  });
}

export function useSendSenderTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, to }: { id: string; to?: string }): Promise<void> => {
      await apiRequest('POST', `${accountPath(id)}/send-test`, to ? { to } : {});
    },
    // The send counts towards today's total.
    onSettled: () => refreshAccounts(queryClient),
  });
}

/**
 * Pins the certificate a server presents (`fingerprint`: the one the user checked; the server refuses
 * with 409 if it presents another now), or forgets the pin (`fingerprint: null`).
 */
export function useTrustSenderCertificate() {
  return useAccountMutation(async ({ id, ...input }: SenderTrustCertificateInput & { id: string }) =>
    readAccount(await apiRequest('POST', `${accountPath(id)}/trust-certificate`, input)),
  );
}
