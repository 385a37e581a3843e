import type { SenderAccount } from '@shared/sending';
import { describe, expect, it } from 'vitest';
import { sendersNeedingAttention } from './sender-health';

const account = (id: string, status: SenderAccount['status'], statusReason: string | null = null) =>
  ({ id, label: `Account ${id}`, fromEmail: `${id}@sender.test`, status, statusReason }) as SenderAccount;

describe('sendersNeedingAttention', () => {
  it('is quiet while every account can send', () => {
    expect(sendersNeedingAttention(['a', 'b'], [account('a', 'active'), account('b', 'active')])).toEqual({
      blocked: [],
      noneCanSend: false,
    });
  });

  it('names paused, failing and deleted accounts, and says when none is left', () => {
    const accounts = [account('a', 'paused'), account('b', 'failing', 'The server refused the password')];
    expect(sendersNeedingAttention(['a', 'b', 'c'], accounts)).toEqual({
      blocked: [
        { id: 'a', name: 'Account a', problem: 'paused by you' },
        { id: 'b', name: 'Account b', problem: 'The server refused the password' },
        { id: 'c', name: 'A removed account', problem: 'it was deleted' },
      ],
      noneCanSend: true,
    });
    expect(sendersNeedingAttention(['a', 'd'], [...accounts, account('d', 'active')]).noneCanSend).toBe(
      false,
    );
  });
});
