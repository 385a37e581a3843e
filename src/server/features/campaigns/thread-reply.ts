import type { Database } from '@server/db/client';
import { outboxAll } from '@server/db/schema/index';
import type { CampaignStep } from '@shared/campaigns';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';

/*
 * Follow-ups sent as replies in the contact's thread (shared/campaigns.ts, THREAD_REPLY): a follow-up
 * step whose subject is empty answers the last message the contact got from the campaign — "Re: " and
 * its subject, In-Reply-To its Message-ID, References the thread so far — and goes from the account that
 * sent that message when it still can (dispatch's allocation). Mail clients then show one conversation,
 * as when a person follows up by hand, and a reply to any message of it stops the sequence.
 */

/** The thread's ids a References header keeps: the first and the most recent, as RFC 5322 allows. */
const MAX_REFERENCES = 10;

/** Whether this step's variant is sent as a reply in the thread. */
export function repliesInThread(step: Pick<CampaignStep, 'position'>, variant: { subject: string }): boolean {
  return step.position > 1 && variant.subject.trim() === '';
}

/** "Re: " before a subject, once ("Re: Re: …" reads as a mail loop). */
export function replySubject(subject: string): string {
  const trimmed = subject.trim();
  return /^re\s*:/i.test(trimmed) ? trimmed : `Re: ${trimmed}`;
}

/** The References of a reply to `answered`: the thread's ids, then `answered`, at most MAX_REFERENCES. */
export function replyReferences(thread: readonly string[] | null, answered: string): string[] {
  const all = [...(thread ?? []).filter((id) => id !== answered), answered];
  if (all.length <= MAX_REFERENCES) return all;
  return [all[0]!, ...all.slice(all.length - (MAX_REFERENCES - 1))];
}

/** The last message a contact got from the campaign: what a threaded follow-up answers. */
export interface ThreadParent {
  subject: string;
  messageId: string;
  threadReferences: string[] | null;
  senderAccountId: string | null;
}

/** Each contact's most recent sent message of the campaign (one query for a batch of contacts). */
export async function loadThreadParents(
  db: Database,
  campaignId: string,
  campaignContactIds: string[],
): Promise<Map<string, ThreadParent>> {
  const parents = new Map<string, ThreadParent>();
  if (campaignContactIds.length === 0) return parents;
  const rows = await db
    .selectDistinctOn([outboxAll.campaignContactId], {
      campaignContactId: outboxAll.campaignContactId,
      subject: outboxAll.subject,
      messageId: outboxAll.messageId,
      threadReferences: outboxAll.threadReferences,
      senderAccountId: outboxAll.senderAccountId,
    })
    .from(outboxAll)
    .where(
      and(
        eq(outboxAll.campaignId, campaignId),
        inArray(outboxAll.campaignContactId, campaignContactIds),
        eq(outboxAll.state, 'sent'),
        isNotNull(outboxAll.messageId),
        isNotNull(outboxAll.sentAt),
      ),
    )
    .orderBy(outboxAll.campaignContactId, sql`${outboxAll.sentAt} desc`);
  for (const row of rows) {
    parents.set(row.campaignContactId, {
      subject: row.subject,
      messageId: row.messageId!,
      threadReferences: row.threadReferences ?? null,
      senderAccountId: row.senderAccountId,
    });
  }
  return parents;
}
