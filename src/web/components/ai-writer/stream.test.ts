import { afterEach, describe, expect, it, vi } from 'vitest';
import { AiStreamInterruptedError, createTextAccumulator, streamAiText } from './stream';

afterEach(() => {
  vi.unstubAllGlobals();
});

function streamOf(chunks: Uint8Array[], failAfter?: number): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (failAfter !== undefined && i === failAfter) {
        controller.error(new TypeError('terminated'));
        return;
      }
      const chunk = chunks[i++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

describe('createTextAccumulator', () => {
  it('decodes characters split across chunks at any byte', () => {
    const text = 'Ẹ n lẹ́ o {{ firstName | default: "ọ̀rẹ́ mi" }}, café';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const acc = createTextAccumulator();
      const first = acc.push(bytes.slice(0, cut));
      expect(first).not.toContain('\uFFFD');
      acc.push(bytes.slice(cut));
      expect(acc.finish()).toBe(text);
    }
  });
});

describe('streamAiText', () => {
  it('reports the growing text after every chunk and returns the whole', async () => {
    const enc = new TextEncoder();
    const chunks = ['Subject: Hi', '\n\n<p>Hello', ' there</p>'].map((c) => enc.encode(c));
    const calls: Array<[string, RequestInit | undefined]> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response(streamOf(chunks), { status: 200 });
    });
    const seen: string[] = [];
    const text = await streamAiText({
      url: '/api/ai/write',
      body: { goal: 'x' },
      onText: (t) => seen.push(t),
    });
    expect(text).toBe('Subject: Hi\n\n<p>Hello there</p>');
    expect(seen.slice(0, 3)).toEqual([
      'Subject: Hi',
      'Subject: Hi\n\n<p>Hello',
      'Subject: Hi\n\n<p>Hello there</p>',
    ]);
    expect(calls[0]![1]).toMatchObject({ method: 'POST', credentials: 'include', body: '{"goal":"x"}' });
  });

  it('rejects with the server message when the answer is an error', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({ message: 'You have used all 5 AI generations', code: 'rate_limited' }),
          {
            status: 429,
          },
        ),
    );
    await expect(streamAiText({ url: '/api/ai/write', body: {}, onText: () => {} })).rejects.toMatchObject({
      status: 429,
      data: { message: 'You have used all 5 AI generations' },
    });
  });

  it('rejects when the stream breaks off, keeping what arrived visible', async () => {
    const enc = new TextEncoder();
    vi.stubGlobal('fetch', async () => new Response(streamOf([enc.encode('Subject: Hi\n\n<p>Hel')], 1)));
    const seen: string[] = [];
    await expect(
      streamAiText({ url: '/api/ai/write', body: {}, onText: (t) => seen.push(t) }),
    ).rejects.toBeInstanceOf(AiStreamInterruptedError);
    expect(seen.at(-1)).toBe('Subject: Hi\n\n<p>Hel');
  });
});
