import { MAX_VARIANTS, type VariantKey } from '@shared/campaigns';
import { AlertTriangle, ArrowLeft, Info, Loader2, Plus, Save, Send, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useBlocker } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import type { Campaign } from '../../api/campaigns';
import {
  type StepPreview,
  useContactLists,
  useCreateStep,
  useListSample,
  usePreviewStep,
  useSenderAccounts,
  useTestSendStep,
  useUpdateStep,
} from '../../api/steps';
import { buildMergeTags } from '../../lib/merge-tags';
import {
  addVariant,
  draftToInput,
  firstVariantWithError,
  isDraftDirty,
  newStepDraft,
  readOnlyReason,
  removeVariant,
  type StepDraft,
  stepToDraft,
  type VariantDraft,
  validateStepDraft,
} from '../../lib/step-form';
import { type PickedContent, UseTemplateButton, WriteWithAiButton } from './integrations';
import { PreviewPanel, RawBodyPreview } from './preview-panel';
import { SplitSettings } from './split-settings';
import { TestSendDialog } from './test-send-dialog';
import { TimingFields } from './timing-fields';
import { VariantFields } from './variant-fields';

export interface StepEditorFormProps {
  campaign: Campaign;
  /** A saved step's id, or null for a step not yet created. */
  stepId: string | null;
  /** `/campaigns/<id>` or `/admin/campaigns/<id>`. */
  basePath: string;
  /** The admin twin: read-only, no preview or test send (those act as the owner). */
  admin?: boolean;
  /** A new step was created: the page moves to its own address (a new form, handed `state`). */
  onCreated?: (stepId: string, state: StepEditorHandOver) => void;
  /** What the form that created this step handed over (the open variant, a preview already made). */
  handOver?: StepEditorHandOver | null;
}

export interface StepEditorHandOver {
  activeKey: VariantKey;
  preview?: (StepPreview & { variantKey: VariantKey }) | null;
}

/** The step editor: timing and condition, variants A–D with subject and body, split, preview, test send. */
export function StepEditorForm({
  campaign,
  stepId,
  basePath,
  admin = false,
  onCreated,
  handOver,
}: StepEditorFormProps) {
  const { user } = useAuth();
  const steps = useMemo(() => [...campaign.steps].sort((a, b) => a.position - b.position), [campaign.steps]);
  const currentId = stepId;
  const savedStep = steps.find((s) => s.id === currentId);
  const index = savedStep ? steps.indexOf(savedStep) : steps.length;
  const isFirst = index === 0;
  const [baseline, setBaseline] = useState<StepDraft>(() =>
    savedStep ? stepToDraft(savedStep) : newStepDraft(isFirst),
  );
  const [draft, setDraft] = useState<StepDraft>(baseline);
  const [activeKey, setActiveKey] = useState<VariantKey>(
    handOver && baseline.variants.some((v) => v.key === handOver.activeKey)
      ? handOver.activeKey
      : (baseline.variants[0]?.key ?? 'A'),
  );
  const [showErrors, setShowErrors] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pendingContent, setPendingContent] = useState<PickedContent | null>(null);
  const [removing, setRemoving] = useState<VariantKey | null>(null);
  const [testOpen, setTestOpen] = useState(false);
  const allowLeave = useRef(false);

  const lockReason = admin ? null : readOnlyReason(campaign.status);
  const readOnly = admin || lockReason !== null;
  const dirty = !readOnly && (currentId === null || isDraftDirty(draft, baseline));
  const errors = showErrors ? validateStepDraft(draft, isFirst) : {};
  const active = draft.variants.find((v) => v.key === activeKey) ?? draft.variants[0];

  const create = useCreateStep(campaign.id);
  const update = useUpdateStep(campaign.id);
  const previewStep = usePreviewStep(campaign.id);
  const testSend = useTestSendStep(campaign.id);
  const saving = create.isPending || update.isPending;

  // The audience's lists: their custom fields for the merge-tag menu, a few members to preview as.
  const lists = useContactLists(!admin);
  const audienceLists = useMemo(
    () => (lists.data?.lists ?? []).filter((list) => campaign.audience.listIds.includes(list.id)),
    [lists.data, campaign.audience.listIds],
  );
  const tags = useMemo(
    () => buildMergeTags(audienceLists.flatMap((list) => list.customFields)),
    [audienceLists],
  );
  const sample = useListSample(admin ? null : (campaign.audience.listIds[0] ?? null));
  const previewContacts = useMemo(
    () =>
      (sample.data?.items ?? []).map((contact) => ({
        email: contact.email,
        name: [contact.firstName, contact.lastName].filter(Boolean).join(' '),
      })),
    [sample.data],
  );
  const senders = useSenderAccounts(!readOnly);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowLeave.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const patch = (next: Partial<StepDraft>) => setDraft((current) => ({ ...current, ...next }));
  const patchVariant = (key: VariantKey, next: Partial<VariantDraft>) =>
    setDraft((current) => ({
      ...current,
      variants: current.variants.map((v) => (v.key === key ? { ...v, ...next } : v)),
    }));

  /** Saves (creates or replaces) the step; answers its id and whether it was created, or null. */
  const persist = async (): Promise<{ id: string; created: boolean } | null> => {
    setServerError(null);
    const found = validateStepDraft(draft, isFirst);
    if (Object.keys(found).length > 0) {
      setShowErrors(true);
      const key = firstVariantWithError(found);
      if (key) setActiveKey(key);
      toast({
        variant: 'destructive',
        title: 'The step was not saved',
        description: 'Check the highlighted fields.',
      });
      return null;
    }
    const sent = draft;
    try {
      const step = currentId
        ? await update.mutateAsync({ stepId: currentId, input: draftToInput(sent) })
        : await create.mutateAsync(draftToInput(sent));
      const savedDraft = stepToDraft(step);
      setBaseline(savedDraft);
      // Take the server's copy (it may tidy the HTML) unless the user typed on meanwhile.
      setDraft((current) => (isDraftDirty(current, sent) ? current : savedDraft));
      setShowErrors(false);
      return { id: step.id, created: !currentId };
    } catch (error) {
      const message = getErrorMessage(error, 'The step could not be saved. Please try again.');
      setServerError(message);
      toast({ variant: 'destructive', title: 'The step was not saved', description: message });
      return null;
    }
  };

  /** A created step moves to its own address; the form there starts from what is handed over. */
  const moveToCreated = (id: string, preview?: StepEditorHandOver['preview']) => {
    allowLeave.current = true;
    onCreated?.(id, { activeKey: active?.key ?? 'A', preview: preview ?? null });
  };

  const save = async () => {
    const saved = await persist();
    if (!saved) return;
    toast({ title: 'Step saved' });
    if (saved.created) moveToCreated(saved.id);
  };

  const persistIfNeeded = async (): Promise<{ id: string; created: boolean } | null> =>
    dirty || !currentId ? persist() : { id: currentId, created: false };

  const applyContent = (content: PickedContent) => {
    if (!active) return;
    patchVariant(active.key, {
      subject: content.subject.replace(/[\r\n]+/g, ' ').slice(0, 200),
      bodyHtml: content.html,
    });
  };
  const offerContent = (content: PickedContent) => {
    if (active && (active.subject.trim() || active.bodyHtml.trim())) setPendingContent(content);
    else applyContent(content);
  };

  const onPreview = async (request: {
    variantKey: VariantKey;
    email?: string;
    sample?: boolean;
  }): Promise<StepPreview> => {
    const saved = await persistIfNeeded();
    if (!saved) throw new Error('Save the step to preview it: check the highlighted fields.');
    const preview = await previewStep.mutateAsync({ ...request, stepId: saved.id });
    if (saved.created) moveToCreated(saved.id, { ...preview, variantKey: request.variantKey });
    return preview;
  };

  const stepNumber = index + 1;
  const backHref = `${basePath}/steps`;

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="step-editor">
      <div className="space-y-3">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link to={backHref} data-testid="back-to-steps">
            <ArrowLeft aria-hidden="true" />
            All steps
          </Link>
        </Button>
        <header className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
          <div className="min-w-0 space-y-1">
            <h1 className="text-2xl font-semibold tracking-tight" data-testid="step-editor-title">
              {currentId ? `Step ${stepNumber}` : `New step ${stepNumber}`}
            </h1>
            <p className="truncate text-sm text-muted-foreground">{campaign.name}</p>
          </div>
          {!readOnly && (
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() => setTestOpen(true)}
                disabled={saving}
                data-testid="step-test-send"
              >
                <Send aria-hidden="true" />
                Send a test
              </Button>
              <Button
                onClick={() => void save()}
                disabled={saving || (!dirty && currentId !== null)}
                data-testid="step-save"
              >
                {saving ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Save aria-hidden="true" />
                )}
                {saving ? 'Saving…' : dirty || !currentId ? 'Save step' : 'Saved'}
              </Button>
            </div>
          )}
        </header>
      </div>

      {lockReason && (
        <Alert data-testid="step-read-only">
          <Info aria-hidden="true" />
          <AlertDescription>{lockReason}</AlertDescription>
        </Alert>
      )}
      {serverError && (
        <Alert variant="destructive" data-testid="step-server-error">
          <AlertTriangle aria-hidden="true" />
          <AlertTitle>The step was not saved</AlertTitle>
          <AlertDescription>{serverError}</AlertDescription>
        </Alert>
      )}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 space-y-6">
          <Card className="gap-4 py-4">
            <CardHeader className="px-4">
              <CardTitle className="text-base">When it goes out</CardTitle>
            </CardHeader>
            <CardContent className="px-4">
              <TimingFields
                draft={draft}
                errors={errors}
                isFirst={isFirst}
                readOnly={readOnly}
                onChange={patch}
              />
            </CardContent>
          </Card>

          <Card className="gap-4 py-4">
            <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 px-4">
              <CardTitle className="text-base">The email</CardTitle>
              {!readOnly && (
                <div className="flex flex-wrap gap-2">
                  <UseTemplateButton onPick={offerContent} />
                  <WriteWithAiButton onInsert={offerContent} />
                </div>
              )}
            </CardHeader>
            <CardContent className="space-y-4 px-4">
              <Tabs value={active?.key ?? 'A'} onValueChange={(value) => setActiveKey(value as VariantKey)}>
                <div className="flex flex-wrap items-center gap-2">
                  <TabsList aria-label="A/B variants">
                    {draft.variants.map((variant) => {
                      const hasError = Object.keys(errors).some((key) =>
                        key.startsWith(`variants.${variant.key}.`),
                      );
                      return (
                        <TabsTrigger
                          key={variant.key}
                          value={variant.key}
                          data-testid={`variant-tab-${variant.key}`}
                        >
                          Variant {variant.key}
                          {draft.variants.length > 1 && (
                            <span className="text-xs text-muted-foreground tabular-nums">
                              {variant.splitPercent}%
                            </span>
                          )}
                          {hasError && (
                            <AlertTriangle className="size-3.5 text-destructive" aria-label="has errors" />
                          )}
                        </TabsTrigger>
                      );
                    })}
                  </TabsList>
                  {!readOnly && draft.variants.length < MAX_VARIANTS && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => {
                        const variants = addVariant(draft.variants);
                        patch({ variants });
                        const added = variants[variants.length - 1];
                        if (added) setActiveKey(added.key);
                      }}
                      data-testid="add-variant"
                    >
                      <Plus aria-hidden="true" />
                      Add variant
                    </Button>
                  )}
                  {!readOnly && draft.variants.length > 1 && active && (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-muted-foreground"
                      onClick={() => setRemoving(active.key)}
                      data-testid="remove-variant"
                    >
                      <X aria-hidden="true" />
                      Remove variant {active.key}
                    </Button>
                  )}
                  {savedStep?.winnerVariantKey && (
                    <Badge variant="success">Winner so far: {savedStep.winnerVariantKey}</Badge>
                  )}
                </div>
                {draft.variants.map((variant) => (
                  <TabsContent key={variant.key} value={variant.key} className="pt-2">
                    <VariantFields
                      variant={variant}
                      tags={tags}
                      errors={errors}
                      readOnly={readOnly}
                      isFirstStep={isFirst}
                      onChange={(next) => patchVariant(variant.key, next)}
                    />
                  </TabsContent>
                ))}
              </Tabs>
              {draft.variants.length > 1 && (
                <SplitSettings draft={draft} errors={errors} readOnly={readOnly} onChange={patch} />
              )}
              {draft.variants.length === 1 && !readOnly && (
                <p className="text-xs text-muted-foreground">
                  Add a variant to test another subject or body: contacts are split between them, and a winner
                  can be picked automatically.
                </p>
              )}
            </CardContent>
          </Card>
        </div>

        <aside className="min-w-0 space-y-4 lg:sticky lg:top-4 lg:self-start">
          {admin ? (
            <RawBodyPreview subject={active?.subject ?? ''} html={active?.bodyHtml ?? ''} />
          ) : (
            <PreviewPanel
              variantKey={active?.key ?? 'A'}
              contacts={previewContacts}
              contactsLoading={sample.isLoading}
              dirty={dirty}
              canPreview={!saving}
              unavailableReason={readOnly && !currentId ? 'Preview is available for saved steps.' : undefined}
              onPreview={onPreview}
              initialPreview={handOver?.preview ?? null}
            />
          )}
        </aside>
      </div>

      {!readOnly && (
        <TestSendDialog
          key={testOpen ? 'open' : 'closed'}
          open={testOpen}
          onOpenChange={setTestOpen}
          variantKey={active?.key ?? 'A'}
          accounts={senders.data ?? []}
          preferredAccountIds={campaign.senderAccountIds}
          defaultTo={user?.email ?? ''}
          dirty={dirty}
          onSend={async ({ senderAccountId, to }) => {
            const saved = await persistIfNeeded();
            if (!saved) throw new Error('Save the step first: check the highlighted fields.');
            const variantKey = active?.key ?? 'A';
            const result = await testSend.mutateAsync({ stepId: saved.id, variantKey, senderAccountId, to });
            toast({ title: 'Test email sent', description: `Variant ${variantKey} is on its way to ${to}.` });
            if (saved.created) moveToCreated(saved.id);
            return result.warnings;
          }}
        />
      )}

      <ConfirmDialog
        open={pendingContent !== null}
        onOpenChange={(open) => !open && setPendingContent(null)}
        title={`Replace variant ${active?.key ?? 'A'}?`}
        description="Its subject and body are replaced by the new text. Nothing is saved until you press Save step."
        confirmLabel="Replace"
        onConfirm={() => {
          if (pendingContent) applyContent(pendingContent);
          setPendingContent(null);
        }}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove variant ${removing ?? ''}?`}
        description="Its subject and body are removed and the split is shared evenly among the others."
        confirmLabel="Remove variant"
        destructive
        testId="remove-variant-dialog"
        onConfirm={() => {
          if (removing) {
            const variants = removeVariant(draft.variants, removing);
            patch({
              variants,
              winnerEnabled: variants.length > 1 ? draft.winnerEnabled : false,
            });
            setActiveKey(variants[0]?.key ?? 'A');
          }
          setRemoving(null);
        }}
      />
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => !open && blocker.state === 'blocked' && blocker.reset()}
        title="Leave without saving?"
        description="Your changes to this step are not saved yet."
        confirmLabel="Leave"
        destructive
        testId="leave-step-dialog"
        onConfirm={() => blocker.state === 'blocked' && blocker.proceed()}
      />
    </div>
  );
}
