import type { AiStatus } from '@shared/ai';
import { PlugZap } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/** What the AI buttons show when no provider is connected: how to connect one. */
export function AiNotConfigured({ status }: { status: AiStatus | undefined }) {
  return (
    <Alert data-testid="ai-not-configured">
      <PlugZap className="size-4" aria-hidden />
      <AlertTitle>Connect an AI provider to write with AI</AlertTitle>
      <AlertDescription>
        <p>{status?.help ?? 'AI writing is not connected yet.'}</p>
        <p className="mt-2">
          Any OpenAI-compatible service works: OpenAI, Groq, Together, OpenRouter, or a model running on your
          own server with Ollama or vLLM.
        </p>
      </AlertDescription>
    </Alert>
  );
}

/** "2 of 5 AI generations used today" with the limit reached spelled out. */
export function AiUsage({ status }: { status: AiStatus }) {
  const left = Math.max(0, status.dailyLimit - status.usedToday);
  return (
    <p className="text-xs text-muted-foreground" data-testid="ai-usage">
      {left === 0
        ? `You have used all ${status.dailyLimit} AI generations for today. They renew at midnight UTC.`
        : `${status.usedToday} of ${status.dailyLimit} AI generations used today.`}
    </p>
  );
}
