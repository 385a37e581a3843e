import { judgeMailUrl } from '@shared/mail-links';
import {
  droppedNewsletterLinks,
  mergeTagNewsletterLinks,
  renderNewsletterHtml,
} from '@shared/newsletter-render';
import {
  NEWSLETTER_KIND_LABELS,
  type Newsletter,
  type NewsletterBlock,
  type NewsletterKind,
  newsletterBlocksSchema,
  starterBlocks,
} from '@shared/newsletters';
import type { Template } from '@shared/templates';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CalendarX, ExternalLink, Loader2, Save, Send } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { AiRewriteMenu, AiWriterDialog } from '@/components/ai-writer';
import { type UnsafeLinks, UnsafeLinksNotice } from '@/components/mail-links/unsafe-links-notice';
import { QueryError } from '@/components/query-error';
import { RichTextEditor, type RichTextEditorHandle } from '@/components/rich-text-editor/rich-text-editor';
import { TemplatePickerDialog } from '@/components/templates/template-picker-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import {
  useCreateNewsletter,
  useNewsletter,
  useUnscheduleNewsletter,
  useUpdateNewsletter,
} from '../api/newsletters';
import { ArchiveSwitch } from '../components/archive-switch';
import { BlockEditor } from '../components/block-editor';
import { EmailPreview } from '../components/email-preview';
import { NewsletterStatusBadge } from '../components/newsletter-status-badge';
import { SendDialog } from '../components/send-dialog';
import { SendPausedAlert } from '../components/send-paused-alert';
import { SendProgress } from '../components/send-progress';
import { TestSendDialog } from '../components/test-send-dialog';
import { type BlockIssue, blockIssuesFromErrors, checkBlocks, describeIssue } from '../lib/block-issues';
import { blockId, htmlToBlocks, validBlocks } from '../lib/blocks';
import { bulkPreviewHtml } from '../lib/preview';

interface Draft {
  kind: NewsletterKind;
  name: string;
  subject: string;
  preheader: string;
  blocks: NewsletterBlock[];
  html: string;
}

function draftOf(newsletter: Newsletter): Draft {
  return {
    kind: newsletter.kind,
    name: newsletter.name,
    subject: newsletter.subject,
    preheader: newsletter.preheader,
    blocks: validBlocks(newsletter.blocks) ?? [],
    html: newsletter.kind === 'bulk' ? newsletter.html : '',
  };
}

function blankDraft(kind: NewsletterKind): Draft {
  return {
    kind,
    name: kind === 'bulk' ? 'Untitled bulk email' : 'Untitled newsletter',
    subject: '',
    preheader: '',
    blocks: kind === 'newsletter' ? starterBlocks(blockId) : [],
    html: '',
  };
}

/** /newsletters/editor/:id, /newsletter-editor (new; ?kind=bulk, ?template=<id>). */
export default function NewsletterEditorPage() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const kindParam: NewsletterKind = search.get('kind') === 'bulk' ? 'bulk' : 'newsletter';
  const templateId = id ? null : search.get('template');
  const newsletter = useNewsletter(id);
  const template = useQuery<Template>({
    queryKey: ['/api/templates', templateId ?? ''],
    enabled: Boolean(templateId),
  });
  const [draft, setDraft] = useState<Draft | null>(id ? null : blankDraft(kindParam));
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<BlockIssue[]>([]);
  const create = useCreateNewsletter();
  const update = useUpdateNewsletter();
  const unschedule = useUnscheduleNewsletter();
  const editorRef = useRef<RichTextEditorHandle>(null);
  const [selection, setSelection] = useState('');
  const ids = useId();

  // Load the stored newsletter once (and again after a save replaced it).
  useEffect(() => {
    if (newsletter.data && !dirty) setDraft(draftOf(newsletter.data));
  }, [newsletter.data, dirty]);

  const applyTemplate = (t: Template) => {
    setDraft((current) => {
      const base = current ?? blankDraft(kindParam);
      const fromTemplate =
        base.kind === 'newsletter'
          ? { blocks: validBlocks(t.blocks) ?? htmlToBlocks(t.bodyHtml) }
          : { html: t.bodyHtml };
      return {
        ...base,
        ...fromTemplate,
        subject: t.subject || base.subject,
        name: base.name.startsWith('Untitled') ? t.name : base.name,
      };
    });
    setDirty(true);
  };

  // ?template=<id> from the templates page starts the new document from it.
  const appliedTemplate = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: applied once, when the template arrives
  useEffect(() => {
    if (template.data && !appliedTemplate.current) {
      appliedTemplate.current = true;
      applyTemplate(template.data);
    }
  }, [template.data]);

  const stored = newsletter.data;
  // A sent newsletter opens its report; the locked editor has nothing more to say about it.
  useEffect(() => {
    if (stored?.status === 'sent') navigate(`/newsletters/${stored.id}/report`, { replace: true });
  }, [stored?.status, stored?.id, navigate]);
  const readOnly = Boolean(stored && (stored.status === 'sending' || stored.status === 'sent'));
  const kind = draft?.kind ?? kindParam;

  const previewHtml = useMemo(() => {
    if (!draft) return '';
    if (draft.kind === 'bulk') return bulkPreviewHtml(draft.html, draft.subject);
    const parsed = newsletterBlocksSchema.safeParse(draft.blocks);
    return renderNewsletterHtml({
      subject: draft.subject,
      preheader: draft.preheader,
      blocks: parsed.success ? parsed.data : draft.blocks,
    });
  }, [draft]);

  // A block document's links are judged where the renderer drops them; a bulk body is scanned as HTML.
  const blockLinks = useMemo((): UnsafeLinks | undefined => {
    if (!draft || draft.kind === 'bulk') return undefined;
    return {
      unsafe: droppedNewsletterLinks(draft.blocks).map((value) => {
        const verdict = judgeMailUrl(value, 'link');
        return { value, reason: verdict.ok ? 'it is not a complete link' : verdict.reason };
      }),
      perContact: mergeTagNewsletterLinks(draft.blocks).map((value) => ({ value })),
    };
  }, [draft]);

  const edit = (patch: Partial<Draft>) => {
    setDraft((current) => (current ? { ...current, ...patch } : current));
    setDirty(true);
  };

  /** Saves (creating it the first time); answers whether it worked. */
  const save = async (quiet = false): Promise<boolean> => {
    if (!draft) return false;
    setError(null);
    setIssues([]);
    const showIssues = (found: BlockIssue[]) => {
      setIssues(found);
      setError(
        found.length === 1
          ? describeIssue(found[0]!, draft.blocks)
          : `${found.length} blocks need attention. ${describeIssue(found[0]!, draft.blocks)}`,
      );
      document.getElementById(`block-${found[0]!.blockId}`)?.scrollIntoView({ block: 'center' });
    };
    if (draft.kind === 'newsletter') {
      const found = checkBlocks(draft.blocks);
      if (found.length > 0) {
        showIssues(found);
        return false;
      }
    }
    const body = {
      name: draft.name,
      subject: draft.subject,
      preheader: draft.preheader,
      ...(draft.kind === 'newsletter' ? { blocks: draft.blocks } : { html: draft.html }),
    };
    try {
      if (!stored) {
        const created = await create.mutateAsync({ kind: draft.kind, ...body });
        setDirty(false);
        if (!quiet) toast({ title: 'Draft saved' });
        navigate(`/newsletters/editor/${created.id}`, { replace: true });
      } else {
        if (readOnly) return true;
        await update.mutateAsync({ id: stored.id, ...body });
        setDirty(false);
        if (!quiet) toast({ title: 'Draft saved' });
      }
      return true;
    } catch (err) {
      const fieldErrors = parseApiError(err).data?.errors ?? [];
      const found = draft.kind === 'newsletter' ? blockIssuesFromErrors(draft.blocks, fieldErrors) : [];
      if (found.length > 0) showIssues(found);
      else setError(getErrorMessage(err, 'Your changes could not be saved. Try again.'));
      return false;
    }
  };
  const saveBeforeSend = () => (dirty ? save(true) : Promise.resolve(true));

  if (id && newsletter.isError) {
    return (
      <QueryError
        title="Could not load this newsletter"
        error={newsletter.error}
        onRetry={() => newsletter.refetch()}
      />
    );
  }
  if (!draft) {
    return (
      <div className="space-y-4 p-1">
        <Skeleton className="h-10 w-1/2" />
        <Skeleton className="h-96" />
      </div>
    );
  }

  const saving = create.isPending || update.isPending;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button asChild variant="ghost" size="sm">
          <Link to="/newsletters">
            <ArrowLeft className="size-4" /> Newsletters
          </Link>
        </Button>
        <span className="text-sm text-muted-foreground">{NEWSLETTER_KIND_LABELS[kind]}</span>
        {stored && <NewsletterStatusBadge status={stored.status} paused={stored.paused} />}
        {stored?.status === 'scheduled' && stored.scheduledAt && (
          <span className="text-sm text-muted-foreground">for {formatDateTime(stored.scheduledAt)}</span>
        )}
        {stored && (
          <a
            href={stored.webUrl}
            target="_blank"
            rel="noreferrer"
            className="ml-auto inline-flex items-center gap-1 text-sm underline"
          >
            Web version <ExternalLink className="size-3.5" />
          </a>
        )}
      </div>

      {stored?.status === 'sending' && (
        <div className="space-y-2">
          <SendPausedAlert id={stored.id} name={stored.name} />
          <SendProgress id={stored.id} />
          <Link to={`/newsletters/${stored.id}/report`} className="text-sm underline">
            Open the report
          </Link>
        </div>
      )}

      {readOnly && stored?.status !== 'sending' && (
        <Alert>
          <AlertDescription>
            This was sent{stored?.sentAt ? ` on ${formatDateTime(stored.sentAt)}` : ''} and can no longer be
            changed. Duplicate it from the newsletters page to send a new version.
          </AlertDescription>
        </Alert>
      )}

      <div className="flex flex-wrap items-center gap-2">
        {!readOnly && (
          <>
            <TemplatePickerDialog kind={kind === 'bulk' ? 'bulk' : 'newsletter'} onPick={applyTemplate} />
            <AiWriterDialog
              kind={kind === 'bulk' ? 'email' : 'newsletter'}
              onInsert={({ subject, html }) =>
                edit(
                  kind === 'bulk'
                    ? { subject: subject || draft.subject, html }
                    : { subject: subject || draft.subject, blocks: htmlToBlocks(html) },
                )
              }
            />
            <Button
              type="button"
              variant="outline"
              onClick={() => save()}
              disabled={saving}
              data-testid="save-draft"
            >
              {saving ? <Loader2 className="size-4 animate-spin" /> : <Save className="size-4" />} Save draft
            </Button>
          </>
        )}
        {stored && !readOnly && <TestSendDialog newsletter={stored} beforeSend={saveBeforeSend} />}
        {stored?.status === 'scheduled' && (
          <Button
            type="button"
            variant="outline"
            disabled={unschedule.isPending}
            onClick={async () => {
              try {
                await unschedule.mutateAsync(stored.id);
                toast({ title: 'Unscheduled', description: 'It is a draft again.' });
              } catch (err) {
                toast({
                  title: 'Could not unschedule',
                  description: getErrorMessage(err, 'Try again.'),
                  variant: 'destructive',
                });
              }
            }}
          >
            <CalendarX className="size-4" /> Unschedule
          </Button>
        )}
        {stored && !readOnly ? (
          <SendDialog
            newsletter={stored}
            beforeSend={saveBeforeSend}
            trigger={
              <Button type="button" data-testid="open-send">
                <Send className="size-4" />{' '}
                {stored.status === 'scheduled' ? 'Change schedule' : 'Send or schedule'}
              </Button>
            }
          />
        ) : (
          !stored && (
            <span className="text-sm text-muted-foreground">Save the draft to send a test or send it.</span>
          )
        )}
        {stored && (
          <div className="ml-auto">
            <ArchiveSwitch id={stored.id} />
          </div>
        )}
      </div>

      {error && (
        <Alert variant="destructive">
          <AlertDescription data-testid="editor-error">{error}</AlertDescription>
        </Alert>
      )}

      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <fieldset disabled={readOnly} className="min-w-0 space-y-4">
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1.5">
              <Label htmlFor={`${ids}-name`}>Name (only you see it)</Label>
              <Input
                id={`${ids}-name`}
                value={draft.name}
                maxLength={120}
                onChange={(e) => edit({ name: e.target.value })}
                data-testid="newsletter-name"
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${ids}-subject`}>Subject</Label>
              <Input
                id={`${ids}-subject`}
                value={draft.subject}
                maxLength={200}
                placeholder="What is in it for the reader?"
                onChange={(e) => edit({ subject: e.target.value })}
                data-testid="newsletter-subject"
              />
            </div>
            {draft.kind === 'newsletter' && (
              <div className="space-y-1.5 sm:col-span-2">
                <Label htmlFor={`${ids}-preheader`}>Preview text</Label>
                <Input
                  id={`${ids}-preheader`}
                  value={draft.preheader}
                  maxLength={200}
                  placeholder="The line inboxes show after the subject"
                  onChange={(e) => edit({ preheader: e.target.value })}
                />
              </div>
            )}
          </div>
          {draft.kind === 'newsletter' ? (
            <>
              <BlockEditor
                blocks={draft.blocks}
                onChange={(blocks) => {
                  edit({ blocks });
                  if (issues.length > 0) setIssues(checkBlocks(blocks));
                }}
                readOnly={readOnly}
                issues={issues}
              />
              <UnsafeLinksNotice links={blockLinks} testId="newsletter-unsafe-links" />
            </>
          ) : (
            <RichTextEditor
              ref={editorRef}
              label="Email body"
              value={draft.html}
              onChange={(html) => edit({ html })}
              readOnly={readOnly}
              placeholder={
                'Write your email. Merge tags like {{ firstName | default: "there" }} are filled in per contact.'
              }
              onSelectionChange={setSelection}
              testId="bulk-body"
              toolbarExtra={
                readOnly ? undefined : (
                  <AiRewriteMenu
                    text={selection}
                    onReplace={(text) => editorRef.current?.replaceSelection(text)}
                  />
                )
              }
            />
          )}
          {draft.kind === 'bulk' && <UnsafeLinksNotice html={draft.html} testId="bulk-unsafe-links" />}
        </fieldset>
        <div className="xl:sticky xl:top-4 xl:self-start">
          <EmailPreview
            html={previewHtml}
            subject={draft.subject}
            personalize={{ listIds: stored?.listIds ?? [] }}
          />
        </div>
      </div>
    </div>
  );
}
