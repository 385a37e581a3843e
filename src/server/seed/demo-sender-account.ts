import { findUserByEmail } from '../features/auth/auth.service';
import { ensureDevMailboxSenderAccount } from '../features/sender-accounts/dev-mailbox-account.service';
import type { Services } from '../services';
import { DEMO_ACCOUNTS } from './demo-accounts';

/**
 * While the development mailbox runs, the demo subscriber has a ready "Tambari test mailbox" sender account,
 * so a first campaign can be sent at once. Every start finds it again (and keeps its port current).
 */
export async function seedDemoSenderAccount(
  services: Pick<Services, 'db' | 'secrets' | 'devMailbox'>,
  options: { print: (line: string) => void },
): Promise<boolean> {
  if (!services.devMailbox) return false;
  const subscriber = DEMO_ACCOUNTS.find((a) => a.role === 'user');
  if (!subscriber) return false;
  const user = await findUserByEmail({ db: services.db, email: subscriber.email });
  if (!user) return false;
  const { created, account } = await ensureDevMailboxSenderAccount({
    db: services.db,
    encryptionKey: services.secrets.encryptionKey,
    userId: user.id,
    devMailboxPort: services.devMailbox.port,
  });
  if (created)
    options.print(`demo sender account: ${account.label} (${account.fromEmail}) for ${subscriber.email}`);
  return created;
}
