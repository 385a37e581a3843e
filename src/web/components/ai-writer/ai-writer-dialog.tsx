import {
  AI_AUDIENCE_MAX,
  AI_GOAL_MAX,
  AI_LANGUAGE_LABELS,
  AI_LANGUAGES,
  AI_LENGTH_LABELS,
  AI_LENGTHS,
  AI_TONE_LABELS,
  AI_TONES,
  type AiKind,
  type AiLanguage,
  type AiLength,
  type AiTone,
  aiWriteInputSchema,
  ensureHtmlParagraphs,
  parseAiDraft,
} from '@shared/ai';
import { Loader2, Sparkles, Square } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage } from '@/lib/errors';
import { AiNotConfigured, AiUsage } from './ai-status-notice';
import { toSafeHtml } from './safe-html';
import { isAbortError, streamAiText } from './stream';
import { useAiStatus, useRefreshAiStatus } from './use-ai-status';

export interface AiDraftResult {
  subject: string;
  html: string;
}

type Phase = 'idle' | 'streaming' | 'done' | 'error';

const GOAL_PLACEHOLDER: Record<AiKind, string> = {
  email:
    'e.g. Introduce our payroll software to HR managers and ask for a 15-minute call. We save 2 days of work every month-end.',
  newsletter:
    'e.g. Our March newsletter: the new Abuja branch, two customer stories, and the training webinar on 28 March.',
};

/**
 * "Write with AI": a brief (goal, audience, tone, length, language) streams a subject and body into the
 * preview; Insert hands them to the editor. Without a provider it explains how to connect one.
 */
export function AiWriterDialog({
  kind,
  onInsert,
  trigger,
  disabled,
}: {
  kind: AiKind;
  onInsert: (draft: AiDraftResult) => void;
  /** The button that opens the dialog; a "Write with AI" button by default. */
  trigger?: ReactNode;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const status = useAiStatus(open);
  const refreshStatus = useRefreshAiStatus();
  const ids = useId();
  const [goal, setGoal] = useState('');
  const [audience, setAudience] = useState('');
  const [tone, setTone] = useState<AiTone>('professional');
  const [length, setLength] = useState<AiLength>(kind === 'newsletter' ? 'medium' : 'short');
  const [language, setLanguage] = useState<AiLanguage>('en');
  const [phase, setPhase] = useState<Phase>('idle');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [goalError, setGoalError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Closing the dialog (or leaving the page) stops a generation still running.
  useEffect(() => () => controller.current?.abort(), []);

  const draft = parseAiDraft(text);
  const previewHtml = toSafeHtml(draft.html);
  const limitReached = status.data ? status.data.usedToday >= status.data.dailyLimit : false;
  const streaming = phase === 'streaming';

  async function generate() {
    const parsed = aiWriteInputSchema.safeParse({ kind, goal, audience, tone, length, language });
    if (!parsed.success) {
      setGoalError(parsed.error.issues[0]?.message ?? 'Check the brief');
      return;
    }
    setGoalError(null);
    setError(null);
    setText('');
    setPhase('streaming');
    const abort = new AbortController();
    controller.current = abort;
    try {
      await streamAiText({ url: '/api/ai/write', body: parsed.data, signal: abort.signal, onText: setText });
      setPhase('done');
    } catch (err) {
      if (isAbortError(err)) {
        setPhase('done');
      } else {
        setError(getErrorMessage(err, 'The draft could not be written. Please try again.'));
        setPhase('error');
      }
    } finally {
      controller.current = null;
      void refreshStatus();
    }
  }

  function stop() {
    controller.current?.abort();
  }

  function insert() {
    onInsert({ subject: draft.subject, html: toSafeHtml(ensureHtmlParagraphs(draft.html)) });
    setOpen(false);
  }

  function onOpenChange(next: boolean) {
    if (!next) controller.current?.abort();
    setOpen(next);
  }

  const configured = status.data?.configured;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild disabled={disabled}>
        {trigger ?? (
          <Button type="button" variant="outline" data-testid="ai-writer-open">
            <Sparkles aria-hidden />
            Write with AI
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="max-h-[92vh] overflow-y-auto sm:max-w-4xl" data-testid="ai-writer-dialog">
        <DialogHeader>
          <DialogTitle>Write {kind === 'newsletter' ? 'a newsletter' : 'an email'} with AI</DialogTitle>
          <DialogDescription>
            Describe what you want; the draft appears as it is written, with merge tags for each contact's
            name and company. Review it before you insert it.
          </DialogDescription>
        </DialogHeader>

        {status.isPending ? (
          <div className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Checking the AI connection…
          </div>
        ) : status.isError ? (
          <Alert variant="destructive">
            <AlertDescription>
              {getErrorMessage(status.error, 'Could not check the AI connection.')}
            </AlertDescription>
          </Alert>
        ) : !configured ? (
          <AiNotConfigured status={status.data} />
        ) : (
          <div className="grid gap-6 md:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
            <form
              className="grid content-start gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                if (!streaming) void generate();
              }}
            >
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-goal`}>What should it achieve?</Label>
                <Textarea
                  id={`${ids}-goal`}
                  value={goal}
                  onChange={(event) => setGoal(event.target.value)}
                  placeholder={GOAL_PLACEHOLDER[kind]}
                  maxLength={AI_GOAL_MAX}
                  rows={4}
                  aria-invalid={goalError ? true : undefined}
                  aria-describedby={goalError ? `${ids}-goal-error` : undefined}
                  disabled={streaming}
                  data-testid="ai-writer-goal"
                />
                {goalError && (
                  <p id={`${ids}-goal-error`} className="text-sm text-destructive">
                    {goalError}
                  </p>
                )}
              </div>
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-audience`}>Who is it for? (optional)</Label>
                <Input
                  id={`${ids}-audience`}
                  value={audience}
                  onChange={(event) => setAudience(event.target.value)}
                  placeholder="e.g. Owners of logistics companies in Nairobi"
                  maxLength={AI_AUDIENCE_MAX}
                  disabled={streaming}
                  data-testid="ai-writer-audience"
                />
              </div>
              <div className="grid grid-cols-2 gap-3">
                <Choice
                  id={`${ids}-tone`}
                  label="Tone"
                  value={tone}
                  onChange={setTone}
                  options={AI_TONES}
                  labels={AI_TONE_LABELS}
                  disabled={streaming}
                />
                <Choice
                  id={`${ids}-length`}
                  label="Length"
                  value={length}
                  onChange={setLength}
                  options={AI_LENGTHS}
                  labels={AI_LENGTH_LABELS}
                  disabled={streaming}
                />
                <Choice
                  className="col-span-2"
                  id={`${ids}-language`}
                  label="Language"
                  value={language}
                  onChange={setLanguage}
                  options={AI_LANGUAGES}
                  labels={AI_LANGUAGE_LABELS}
                  disabled={streaming}
                />
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {streaming ? (
                  <Button type="button" variant="outline" onClick={stop} data-testid="ai-writer-stop">
                    <Square aria-hidden /> Stop
                  </Button>
                ) : (
                  <Button type="submit" disabled={limitReached} data-testid="ai-writer-generate">
                    <Sparkles aria-hidden />
                    {phase === 'idle' ? 'Write draft' : 'Write again'}
                  </Button>
                )}
              </div>
              {status.data && <AiUsage status={status.data} />}
            </form>

            <section
              aria-label="Draft"
              aria-live="polite"
              aria-busy={streaming}
              className="grid content-start gap-3"
            >
              {error && (
                <Alert variant="destructive" data-testid="ai-writer-error">
                  <AlertDescription>{error}</AlertDescription>
                </Alert>
              )}
              <div className="rounded-md border bg-muted/30">
                <div className="border-b px-4 py-2 text-sm">
                  <span className="text-muted-foreground">Subject: </span>
                  <span className="font-medium" data-testid="ai-writer-subject">
                    {draft.subject || (streaming ? '…' : '')}
                  </span>
                </div>
                <div
                  className="min-h-56 max-h-[50vh] overflow-y-auto px-4 py-3 text-sm leading-relaxed [&_a]:text-primary [&_a]:underline [&_h2]:mt-3 [&_h2]:text-base [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold [&_li]:ml-5 [&_li]:list-disc [&_p]:my-2"
                  data-testid="ai-writer-preview"
                >
                  {previewHtml ? (
                    // Rebuilt from an allowlist of tags without attributes (safe-html.ts).
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: allowlisted HTML, see toSafeHtml
                    <div dangerouslySetInnerHTML={{ __html: previewHtml }} />
                  ) : (
                    <p className="text-muted-foreground">
                      {streaming ? 'Writing…' : 'Your draft will appear here as it is written.'}
                    </p>
                  )}
                  {streaming && (
                    <span className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground/60 align-middle" />
                  )}
                </div>
              </div>
              {draft.html && (
                <p className="text-xs text-muted-foreground">
                  Tags like {'{{ firstName | default: "there" }}'} become each contact's details when it is
                  sent.
                </p>
              )}
            </section>
          </div>
        )}

        <DialogFooter>
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            {configured ? 'Cancel' : 'Close'}
          </Button>
          {configured && (
            <Button
              type="button"
              onClick={insert}
              disabled={phase !== 'done' || !draft.html}
              data-testid="ai-writer-insert"
            >
              Insert draft
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Choice<T extends string>({
  className,
  id,
  label,
  value,
  onChange,
  options,
  labels,
  disabled,
}: {
  className?: string;
  id: string;
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly T[];
  labels: Record<T, string>;
  disabled?: boolean;
}) {
  return (
    <div className={`grid min-w-0 gap-2 ${className ?? ''}`}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={(next) => onChange(next as T)} disabled={disabled}>
        <SelectTrigger id={id} className="w-full" data-testid={`ai-writer-${label.toLowerCase()}`}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {labels[option]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
