import type { Transporter } from 'nodemailer';
import type { Env } from '../../env';
import { openSmtpTransport } from '../sender-accounts/sender-transport';
import type { SenderAccountRow } from './sender-allocation';

/**
 * One pooled SMTP transport per sender account per worker process, reused across batches (a new TLS
 * handshake per message would cap us at a few dozen a second). An account edited since its transport
 * was opened (host, password…) gets a fresh one.
 */
export interface TransportCache {
  get(account: SenderAccountRow): Promise<Transporter>;
  /** Drops an account's transport after a connection or authentication failure. */
  discard(accountId: string): void;
  closeAll(): void;
  /** Pooled SMTP connections each account's transport opens (the dispatcher keeps that many busy). */
  readonly connectionsPerAccount: number;
}

export function createTransportCache(options: {
  encryptionKey: Buffer;
  network: Env['SENDER_NETWORK'];
  devMailboxPort: number | null;
  maxConnectionsPerAccount?: number;
  /** SMTP_EHLO_NAME (unset: each account's own domain). */
  ehloName?: string | null;
}): TransportCache {
  const entries = new Map<string, { version: number; transport: Promise<Transporter> }>();
  const connectionsPerAccount = options.maxConnectionsPerAccount ?? 2;
  return {
    connectionsPerAccount,
    async get(account) {
      const version = account.updatedAt.getTime();
      const existing = entries.get(account.id);
      if (existing && existing.version === version) return existing.transport;
      if (existing) void existing.transport.then((t) => t.close()).catch(() => {});
      const transport = openSmtpTransport({
        account,
        encryptionKey: options.encryptionKey,
        network: options.network,
        devMailboxPort: options.devMailboxPort,
        pool: true,
        maxConnections: connectionsPerAccount,
        ehloName: options.ehloName,
      });
      entries.set(account.id, { version, transport });
      // A failed open (guard refused the host, DNS error) must not stay cached.
      transport.catch(() => {
        if (entries.get(account.id)?.transport === transport) entries.delete(account.id);
      });
      return transport;
    },
    discard(accountId) {
      const existing = entries.get(accountId);
      entries.delete(accountId);
      if (existing) void existing.transport.then((t) => t.close()).catch(() => {});
    },
    closeAll() {
      for (const id of [...entries.keys()]) this.discard(id);
    },
  };
}
