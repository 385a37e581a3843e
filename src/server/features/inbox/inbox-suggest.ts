import type { Database } from '@server/db/client';
import { inboundMessages } from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import { INBOX_CATEGORIES, INBOX_CATEGORY_LABELS, type InboxCategory } from '@shared/inbox';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  type AiProvider,
  assertAiConfigured,
  loadAiSdk,
  releaseAiGeneration,
  reserveAiGeneration,
} from '../ai/ai.service';
import { getInboxItem } from './inbox.service';

/*
 * An AI provider's opinion of a message's category, asked for on demand where one is configured. It is
 * only a suggestion: nothing is stored, the screen shows it and the user applies it or not. Counts as one
 * AI generation of the user's day. The message text goes to the provider and is never logged.
 */

const TEXT_LIMIT = 3000;

export async function suggestInboxCategory(options: {
  db: Database;
  userId: string;
  id: string;
  provider: AiProvider | null;
  log: FastifyBaseLogger;
}): Promise<{ category: InboxCategory | null }> {
  const { db, userId } = options;
  const item = await getInboxItem({ db, userId, id: options.id });
  const provider = assertAiConfigured(options.provider);
  const { text: body } = await loadText(db, userId, options.id);
  // Loaded before the provider's time limit starts (see startAiStream).
  const [{ generateText }, model] = await Promise.all([loadAiSdk(), provider.model()]);
  const reservation = await reserveAiGeneration({ db, userId, action: 'inbox_category' });
  const choices = INBOX_CATEGORIES.map((c) => `${c} (${INBOX_CATEGORY_LABELS[c]})`).join(', ');
  try {
    const answer = await generateText({
      model,
      system: `You sort replies to sales emails. Answer with exactly one of these category ids and nothing else: ${choices}.`,
      prompt: `Subject: ${item.subject ?? ''}\n\n${body.slice(0, TEXT_LIMIT)}`,
      maxOutputTokens: 20,
      temperature: 0,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(provider.timeoutMs),
    });
    return { category: readCategory(answer.text) };
  } catch (error) {
    await releaseAiGeneration({ db, id: reservation.id }).catch(() => {});
    options.log.warn({ err: error instanceof Error ? error.name : 'error' }, 'AI category suggestion failed');
    throw new AppError('unavailable', 'The AI provider did not answer. Please try again.', {
      reason: 'ai_provider_failed',
    });
  }
}

/** The first category id (or label) the answer names. */
export function readCategory(answer: string): InboxCategory | null {
  const said = answer.toLowerCase().replace(/[-\s]+/g, '_');
  let best: { category: InboxCategory; at: number } | null = null;
  for (const category of INBOX_CATEGORIES) {
    const label = INBOX_CATEGORY_LABELS[category].toLowerCase().replace(/[-\s]+/g, '_');
    for (const name of [category, label]) {
      const at = said.indexOf(name);
      if (at !== -1 && (!best || at < best.at || (at === best.at && name.length > best.category.length))) {
        best = { category, at };
      }
    }
  }
  return best?.category ?? null;
}

async function loadText(db: Database, userId: string, id: string): Promise<{ text: string }> {
  const [row] = await db
    .select({ text: inboundMessages.textBody })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.id, id), eq(inboundMessages.userId, userId)));
  return { text: row?.text ?? '' };
}
