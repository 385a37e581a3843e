import type { Database } from '@server/db/client';
import { aiGenerations } from '@server/db/schema/index';
import type { Env } from '@server/env';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { AI_DAILY_LIMITS, AI_MESSAGES, type AiStatus } from '@shared/ai';
import { isPlanId } from '@shared/plans';
import type { LanguageModel } from 'ai';
import { and, count, eq, gte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { getPlanLimits } from '../plans/plan-limits.service';
import { plansInOrder } from '../plans/plans.service';
import type { Prompt } from './ai-prompts';

// The SDK would print its warnings (e.g. an unsupported setting) to stderr, outside our logger.
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

/*
 * The AI SDK (`ai`, its provider packages and their own dependencies: ~2.5 MB of module source, more once
 * compiled) is loaded at the first generation, not at start: most web processes serve no AI request for
 * a long time, or ever, and every module loaded stays in memory for the process's life.
 */
let sdk: Promise<typeof import('ai')> | undefined;

/** The AI SDK's functions, loaded once, at first use. */
export function loadAiSdk(): Promise<typeof import('ai')> {
  sdk ??= import('ai');
  return sdk;
}

/** The configured provider's model, or null when AI_BASE_URL is unset. */
export interface AiProvider {
  /** The model, made (with the SDK loaded) at its first use. */
  model: () => Promise<LanguageModel>;
  modelName: string;
  timeoutMs: number;
}

export function createAiProvider(env: Env): AiProvider | null {
  const { AI_BASE_URL: baseUrl, AI_MODEL: modelName } = env;
  if (!baseUrl || !modelName) return null;
  let model: Promise<LanguageModel> | undefined;
  const makeModel = async (): Promise<LanguageModel> => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const provider = createOpenAICompatible({
      name: 'tambari-ai',
      baseURL: baseUrl.replace(/\/$/, ''),
      apiKey: env.AI_API_KEY,
    });
    return provider.chatModel(modelName);
  };
  return {
    model: () => {
      // A failed load is not kept: the next request tries again.
      model ??= makeModel().catch((error: unknown) => {
        model = undefined;
        throw error;
      });
      return model;
    },
    modelName,
    timeoutMs: env.AI_TIMEOUT_SECONDS * 1000,
  };
}

function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

async function usedToday(db: Database, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(aiGenerations)
    .where(and(eq(aiGenerations.userId, userId), gte(aiGenerations.createdAt, since)));
  return Number(row?.n ?? 0);
}

async function dailyLimitOf(db: Database, userId: string) {
  const limits = await getPlanLimits({ db, userId });
  return { planId: limits.planId, planName: limits.planName, limit: AI_DAILY_LIMITS[limits.planId] };
}

/** GET /api/ai/status. */
export async function getAiStatus({
  db,
  userId,
  provider,
  isSuperAdmin = false,
}: {
  db: Database;
  userId: string;
  provider: AiProvider | null;
  /** Only a super admin is told about server settings. */
  isSuperAdmin?: boolean;
}): Promise<AiStatus> {
  const at = now();
  const since = startOfUtcDay(at);
  const [{ limit }, used] = await Promise.all([dailyLimitOf(db, userId), usedToday(db, userId, since)]);
  return {
    configured: provider !== null,
    model: provider?.modelName ?? null,
    usedToday: used,
    dailyLimit: limit,
    resetsAt: new Date(since.getTime() + 86_400_000).toISOString(),
    ...(provider ? {} : { help: AI_MESSAGES.notConfigured }),
    ...(!provider && isSuperAdmin ? { adminHelp: AI_MESSAGES.adminSetup } : {}),
  };
}

export function assertAiConfigured(provider: AiProvider | null): AiProvider {
  if (!provider)
    throw new AppError('unavailable', AI_MESSAGES.notConfigured, { reason: 'ai_not_configured' });
  return provider;
}

/**
 * Counts one generation against today's limit, or refuses with 429. The row is written first and the
 * count read after, so two requests racing for the last generation can both be refused but never both pass.
 */
export async function reserveAiGeneration({
  db,
  userId,
  action,
}: {
  db: Database;
  userId: string;
  action: string;
}): Promise<{ id: string }> {
  const at = now();
  const { planId, planName, limit } = await dailyLimitOf(db, userId);
  const [row] = await db
    .insert(aiGenerations)
    .values({ userId, action, createdAt: at })
    .returning({ id: aiGenerations.id });
  if (!row) throw new AppError('internal', 'Could not record the AI generation.');
  const used = await usedToday(db, userId, startOfUtcDay(at));
  if (used > limit) {
    await releaseAiGeneration({ db, id: row.id });
    const plans = (await plansInOrder({ db })).filter((p) => p.active && isPlanId(p.id));
    const current = plans.find((p) => p.id === planId);
    const next = plans.find(
      (p) => p.sortOrder > (current?.sortOrder ?? -1) && isPlanId(p.id) && AI_DAILY_LIMITS[p.id] > limit,
    );
    throw new AppError(
      'rate_limited',
      AI_MESSAGES.dailyLimit(
        limit,
        planName,
        next && isPlanId(next.id) ? { name: next.name, limit: AI_DAILY_LIMITS[next.id] } : null,
      ),
      { reason: 'ai_daily_limit', limit, used: limit },
    );
  }
  return row;
}

/** Gives a generation back (the provider failed before writing anything). */
export async function releaseAiGeneration({ db, id }: { db: Database; id: string }): Promise<void> {
  await db.delete(aiGenerations).where(eq(aiGenerations.id, id));
}

class AiStreamError extends Error {}

/**
 * Starts a generation and waits for its first words, so a provider that is down, refuses the key or never
 * answers becomes a clean JSON error (and the generation is not counted). Returns the text as it arrives:
 * the first chunk, then the rest. A failure after that ends the iteration with an error (the response is
 * cut short, which the browser reports).
 *
 * `signal` aborts the provider call (the client went away); the provider's time limit aborts it too.
 * Prompts and answers are never logged: they can hold the user's contacts and business details.
 */
export async function startAiStream({
  db,
  userId,
  provider,
  action,
  prompt,
  signal,
  log,
}: {
  db: Database;
  userId: string;
  provider: AiProvider;
  action: string;
  prompt: Prompt;
  signal: AbortSignal;
  log: FastifyBaseLogger;
}): Promise<AsyncIterable<string>> {
  // Loaded before the provider's time limit starts: it is the provider's, not our first start-up's.
  const [{ streamText }, model] = await Promise.all([loadAiSdk(), provider.model()]);
  const reservation = await reserveAiGeneration({ db, userId, action });
  const timeout = AbortSignal.timeout(provider.timeoutMs);
  const abortSignal = AbortSignal.any([signal, timeout]);
  const failure = (error: unknown): AppError => {
    if (timeout.aborted) return new AppError('unavailable', AI_MESSAGES.timedOut, { reason: 'ai_timeout' });
    log.warn({ action, err: describeProviderError(error) }, 'AI provider call failed');
    return new AppError('unavailable', AI_MESSAGES.providerFailed, { reason: 'ai_provider_failed' });
  };

  let iterator: AsyncIterator<string>;
  let first: IteratorResult<string>;
  try {
    const result = streamText({
      model,
      system: prompt.system,
      prompt: prompt.prompt,
      maxOutputTokens: prompt.maxOutputTokens,
      temperature: 0.7,
      // One attempt: the person is watching and can press "Try again"; retries with back-off would eat the time limit.
      maxRetries: 0,
      abortSignal,
      // Errors arrive as stream parts below; the default handler would print them to the console.
      onError: () => {},
    });
    iterator = textOf(result.fullStream)[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (error) {
    await releaseAiGeneration({ db, id: reservation.id }).catch(() => {});
    throw failure(error);
  }
  if (first.done) {
    await releaseAiGeneration({ db, id: reservation.id }).catch(() => {});
    throw new AppError('unavailable', 'The AI provider returned an empty answer. Please try again.', {
      reason: 'ai_empty',
    });
  }

  const firstText = first.value;
  return {
    async *[Symbol.asyncIterator]() {
      yield firstText;
      try {
        while (true) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      } catch (error) {
        if (!signal.aborted) failure(error);
        throw new AiStreamError(timeout.aborted ? AI_MESSAGES.timedOut : AI_MESSAGES.providerFailed);
      }
    },
  };
}

/** The text deltas of a stream; an error or abort part ends it with an error. */
async function* textOf(
  parts: AsyncIterable<{ type: string; text?: string; error?: unknown }>,
): AsyncGenerator<string> {
  for await (const part of parts) {
    if (part.type === 'text-delta' && part.text) yield part.text;
    else if (part.type === 'error')
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    else if (part.type === 'abort') throw new Error('aborted');
  }
}

/** What may be logged of a provider failure: status and a short message, never the prompt or request body. */
function describeProviderError(error: unknown): { name: string; message: string; status?: number } {
  if (!(error instanceof Error)) return { name: 'Error', message: 'unknown error' };
  const status = (error as { statusCode?: unknown }).statusCode;
  return {
    name: error.name,
    message: error.message.slice(0, 200),
    ...(typeof status === 'number' ? { status } : {}),
  };
}
