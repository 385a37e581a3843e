import { throwIfResNotOk } from '@/lib/api';

/**
 * Reads a streamed plain-text answer from /api/ai/write or /api/ai/rewrite, calling `onText` with the
 * whole text so far after every chunk. Multi-byte characters split across chunks (Yoruba tone marks,
 * French accents) are decoded once complete. A response cut short by the server rejects, so a broken
 * draft is never presented as finished.
 */
export async function streamAiText({
  url,
  body,
  signal,
  onText,
}: {
  url: string;
  body: unknown;
  signal?: AbortSignal;
  onText: (accumulated: string) => void;
}): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'include',
    signal,
  });
  await throwIfResNotOk(res);
  if (!res.body) {
    const text = await res.text();
    onText(text);
    return text;
  }
  const accumulator = createTextAccumulator();
  const reader = res.body.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      onText(accumulator.push(value));
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new AiStreamInterruptedError();
  }
  const text = accumulator.finish();
  onText(text);
  return text;
}

export class AiStreamInterruptedError extends Error {
  constructor() {
    super('The AI provider stopped before finishing. Please try again.');
    this.name = 'AiStreamInterruptedError';
  }
}

/** Collects UTF-8 bytes into text as they arrive; pure so it can be tested with any chunking. */
export function createTextAccumulator() {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  return {
    push(bytes: Uint8Array): string {
      text += decoder.decode(bytes, { stream: true });
      return text;
    },
    finish(): string {
      text += decoder.decode();
      return text;
    },
  };
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
