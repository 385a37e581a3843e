import type { SenderAccount } from '@shared/sending';

export interface BlockedSender {
  id: string;
  name: string;
  problem: string;
}

/** The campaign's accounts that cannot send now, and whether any account is left that can. */
export function sendersNeedingAttention(
  senderAccountIds: string[],
  accounts: SenderAccount[],
): { blocked: BlockedSender[]; noneCanSend: boolean } {
  const blocked: BlockedSender[] = [];
  let usable = 0;
  for (const id of senderAccountIds) {
    const account = accounts.find((a) => a.id === id);
    if (!account) {
      blocked.push({ id, name: 'A removed account', problem: 'it was deleted' });
      continue;
    }
    const name = account.label || account.fromEmail;
    if (account.status === 'active') usable++;
    else if (account.status === 'paused') blocked.push({ id, name, problem: 'paused by you' });
    else blocked.push({ id, name, problem: account.statusReason ?? 'it keeps failing' });
  }
  return { blocked, noneCanSend: senderAccountIds.length > 0 && usable === 0 };
}
