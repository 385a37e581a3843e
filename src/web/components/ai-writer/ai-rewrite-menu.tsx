import {
  AI_LANGUAGE_LABELS,
  AI_LANGUAGES,
  AI_REWRITE_ACTION_LABELS,
  AI_REWRITE_TEXT_MAX,
  type AiLanguage,
  type AiRewriteAction,
  type AiTone,
  cleanRewrite,
  toPlainText,
} from '@shared/ai';
import { Languages, Loader2, Minimize2, RefreshCw, Sparkles, Wand2 } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { getErrorMessage } from '@/lib/errors';
import { AiNotConfigured, AiUsage } from './ai-status-notice';
import { toSafeHtml } from './safe-html';
import { isAbortError, streamAiText } from './stream';
import { useAiStatus, useRefreshAiStatus } from './use-ai-status';

type Phase = 'streaming' | 'done' | 'error';

interface Request {
  action: AiRewriteAction;
  language?: AiLanguage;
}

const ACTION_ICONS = { improve: Wand2, shorten: Minimize2, rewrite: RefreshCw } as const;

const isHtml = (text: string) => /<[a-z][^>]*>/i.test(text);

/**
 * Improve / Shorten / Rewrite / Translate for the text selected in an editor. The result streams into a
 * dialog beside the original; "Replace" hands it to `onReplace` (HTML in, HTML out; plain text in, plain
 * text out). Merge tags are kept as they are.
 */
export function AiRewriteMenu({
  text,
  onReplace,
  tone,
  trigger,
  disabled,
}: {
  /** The current selection (plain text or HTML). Empty: the items explain that something must be selected. */
  text: string;
  onReplace: (text: string) => void;
  tone?: AiTone;
  trigger?: ReactNode;
  disabled?: boolean;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const status = useAiStatus(menuOpen);
  const refreshStatus = useRefreshAiStatus();
  const [request, setRequest] = useState<Request | null>(null);
  const [source, setSource] = useState('');
  const [phase, setPhase] = useState<Phase>('streaming');
  const [result, setResult] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [showHelp, setShowHelp] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const hasText = text.trim().length > 0;
  const tooLong = text.length > AI_REWRITE_TEXT_MAX;
  const configured = status.data?.configured ?? true;

  async function run(next: Request, original: string) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setRequest(next);
    setSource(original);
    setResult('');
    setError(null);
    setPhase('streaming');
    try {
      await streamAiText({
        url: '/api/ai/rewrite',
        body: {
          action: next.action,
          text: original,
          ...(tone ? { tone } : {}),
          ...(next.language ? { language: next.language } : {}),
        },
        signal: abort.signal,
        onText: setResult,
      });
      setPhase('done');
    } catch (err) {
      if (isAbortError(err)) return;
      setError(getErrorMessage(err, 'The text could not be rewritten. Please try again.'));
      setPhase('error');
    } finally {
      if (controller.current === abort) controller.current = null;
      void refreshStatus();
    }
  }

  function choose(next: Request) {
    if (!configured) {
      setShowHelp(true);
      return;
    }
    void run(next, text);
  }

  function close() {
    controller.current?.abort();
    setRequest(null);
  }

  const html = isHtml(source);
  const cleaned = html ? cleanRewrite(result) : toPlainText(cleanRewrite(result));
  const title = request
    ? request.action === 'translate' && request.language
      ? `Translate into ${AI_LANGUAGE_LABELS[request.language]}`
      : `${AI_REWRITE_ACTION_LABELS[request.action]} with AI`
    : '';
  const itemsDisabled = !hasText || tooLong;

  return (
    <>
      <DropdownMenu open={menuOpen} onOpenChange={setMenuOpen}>
        <DropdownMenuTrigger asChild disabled={disabled}>
          {trigger ?? (
            <Button type="button" variant="outline" size="sm" data-testid="ai-rewrite-open">
              <Sparkles aria-hidden />
              AI
            </Button>
          )}
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-56" data-testid="ai-rewrite-menu">
          <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
            {!hasText
              ? 'Select some text first'
              : tooLong
                ? `Select at most ${AI_REWRITE_TEXT_MAX.toLocaleString('en-US')} characters`
                : 'Rewrite the selection'}
          </DropdownMenuLabel>
          {(['improve', 'shorten', 'rewrite'] as const).map((action) => {
            const Icon = ACTION_ICONS[action];
            return (
              <DropdownMenuItem
                key={action}
                disabled={itemsDisabled}
                onSelect={() => choose({ action })}
                data-testid={`ai-rewrite-${action}`}
              >
                <Icon aria-hidden />
                {AI_REWRITE_ACTION_LABELS[action]}
              </DropdownMenuItem>
            );
          })}
          <DropdownMenuSeparator />
          <DropdownMenuSub>
            <DropdownMenuSubTrigger disabled={itemsDisabled} data-testid="ai-rewrite-translate">
              <Languages aria-hidden className="mr-2 size-4 text-muted-foreground" />
              Translate
            </DropdownMenuSubTrigger>
            <DropdownMenuSubContent>
              {AI_LANGUAGES.map((language) => (
                <DropdownMenuItem
                  key={language}
                  onSelect={() => choose({ action: 'translate', language })}
                  data-testid={`ai-rewrite-translate-${language}`}
                >
                  {AI_LANGUAGE_LABELS[language]}
                </DropdownMenuItem>
              ))}
            </DropdownMenuSubContent>
          </DropdownMenuSub>
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={showHelp} onOpenChange={setShowHelp}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Rewrite with AI</DialogTitle>
            <DialogDescription>Improve, shorten, rewrite or translate a selection.</DialogDescription>
          </DialogHeader>
          <AiNotConfigured status={status.data} />
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => setShowHelp(false)}>
              Close
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={request !== null} onOpenChange={(open) => !open && close()}>
        <DialogContent className="max-h-[92vh] overflow-y-auto sm:max-w-3xl" data-testid="ai-rewrite-dialog">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>Compare, then replace your selection or keep the original.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 md:grid-cols-2">
            <TextPanel label="Original" text={source} html={html} muted />
            <div className="grid content-start gap-2" aria-live="polite" aria-busy={phase === 'streaming'}>
              <TextPanel
                label={phase === 'streaming' ? 'Writing…' : 'Suggestion'}
                text={cleaned}
                html={html}
                placeholder={phase === 'streaming' ? 'Writing…' : ''}
                testId="ai-rewrite-result"
              />
              {error && (
                <Alert variant="destructive" data-testid="ai-rewrite-error">
                  <AlertDescription>{error}</AlertDescription>
                </Alert>
              )}
            </div>
          </div>
          {status.data && <AiUsage status={status.data} />}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={close}>
              Keep original
            </Button>
            {phase === 'streaming' ? (
              <Button type="button" variant="outline" disabled>
                <Loader2 className="animate-spin" aria-hidden /> Writing…
              </Button>
            ) : (
              request && (
                <Button type="button" variant="outline" onClick={() => void run(request, source)}>
                  <RefreshCw aria-hidden /> Try again
                </Button>
              )
            )}
            <Button
              type="button"
              disabled={phase !== 'done' || cleaned === ''}
              onClick={() => {
                onReplace(html ? toSafeHtml(cleaned) : cleaned);
                close();
              }}
              data-testid="ai-rewrite-replace"
            >
              Replace selection
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

function TextPanel({
  label,
  text,
  html,
  muted,
  placeholder,
  testId,
}: {
  label: string;
  text: string;
  html: boolean;
  muted?: boolean;
  placeholder?: string;
  testId?: string;
}) {
  return (
    <div className="grid content-start gap-1.5">
      <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</p>
      <div
        className={`max-h-[40vh] min-h-24 overflow-y-auto rounded-md border px-3 py-2 text-sm leading-relaxed [&_a]:text-primary [&_a]:underline [&_li]:ml-5 [&_li]:list-disc [&_p]:my-1.5 ${muted ? 'bg-muted/40 text-muted-foreground' : 'bg-background'}`}
        data-testid={testId}
      >
        {text === '' ? (
          <p className="text-muted-foreground">{placeholder}</p>
        ) : html ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: allowlisted HTML, see toSafeHtml
          <div dangerouslySetInnerHTML={{ __html: toSafeHtml(text) }} />
        ) : (
          <p className="whitespace-pre-wrap">{text}</p>
        )}
      </div>
    </div>
  );
}
