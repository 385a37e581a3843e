import type { AiStatus } from '@shared/ai';
import { PlugZap } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * What the AI buttons show when AI writing is unavailable. A customer is told so in plain words; only a
 * super admin (the server tells us by sending adminHelp) sees how to connect a provider.
 */
export function AiNotConfigured({ status }: { status: AiStatus | undefined }) {
  if (status?.adminHelp) {
    return (
      <Alert data-testid="ai-not-configured">
        <PlugZap className="size-4" aria-hidden />
        <AlertTitle>Connect an AI provider to write with AI</AlertTitle>
        <AlertDescription>
          <p>{status.adminHelp}</p>
          <p className="mt-2">
            Any OpenAI-compatible service works: OpenAI, Groq, Together, OpenRouter, or a model running on
            your own server with Ollama or vLLM.{' '}
            <Link className="underline" to="/admin/documentation/connect-ai">
              Read the runbook
            </Link>
            .
          </p>
          <p className="mt-2 text-xs">
            Only super admins see this; customers are told AI writing is not available.
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert data-testid="ai-not-configured">
      <PlugZap className="size-4" aria-hidden />
      <AlertTitle>AI writing is not available</AlertTitle>
      <AlertDescription>
        <p>{status?.help ?? 'AI writing is not available on this installation.'}</p>
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
