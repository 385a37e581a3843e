import { Check, ChevronLeft, ChevronRight, FileText, Loader2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import { cn } from '@/lib/utils';
import {
  type Campaign,
  type TemplateSummary,
  useCreateCampaign,
  useUpdateCampaign,
} from '../../api/campaigns';
import {
  type CampaignFormState,
  checkWithSharedSchema,
  emptyCampaignForm,
  type FormErrors,
  formFromCampaign,
  stepOfField,
  toCampaignSettings,
  validateStep,
  WIZARD_STEP_LABELS,
  WIZARD_STEPS,
  type WizardStep,
} from '../../lib/campaign-form';
import { AudienceFields } from './audience-fields';
import { ScheduleFields } from './schedule-fields';
import { SenderFields, useSenderAccountList } from './sender-fields';
import { VerificationSkipField } from './verification-skip-field';

/** The server's field errors (`errors: [{ path, message }]`) as form errors. */
function serverFieldErrors(error: unknown): FormErrors {
  const list = (parseApiError(error).data as { errors?: unknown } | undefined)?.errors;
  const out: FormErrors = {};
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const { path, message } = item as { path?: unknown; message?: unknown };
    if (typeof message !== 'string') continue;
    const field = String(path ?? '').split('.')[0] || 'name';
    const key = (field === 'listIds' || field === 'leadFilters' ? 'audience' : field) as keyof FormErrors;
    out[key] ??= message;
  }
  return out;
}

function Stepper({ current, onGo }: { current: WizardStep; onGo: (step: WizardStep) => void }) {
  const index = WIZARD_STEPS.indexOf(current);
  return (
    <ol className="flex items-center gap-1 text-xs sm:gap-2 sm:text-sm" aria-label="Steps">
      {WIZARD_STEPS.map((step, i) => {
        const done = i < index;
        return (
          <li key={step} className="flex items-center gap-1 sm:gap-2">
            <button
              type="button"
              disabled={i > index}
              onClick={() => onGo(step)}
              aria-current={step === current ? 'step' : undefined}
              className={cn(
                'flex items-center gap-1.5 rounded-full px-2 py-1 font-medium transition-colors disabled:cursor-default',
                step === current && 'bg-primary text-primary-foreground',
                done && 'text-primary hover:bg-accent',
                !done && step !== current && 'text-muted-foreground',
              )}
            >
              <span
                className={cn(
                  'flex size-5 items-center justify-center rounded-full border text-[11px]',
                  step === current && 'border-primary-foreground',
                )}
                aria-hidden="true"
              >
                {done ? <Check className="size-3" /> : i + 1}
              </span>
              <span className={cn(step !== current && 'hidden sm:inline')}>{WIZARD_STEP_LABELS[step]}</span>
            </button>
            {i < WIZARD_STEPS.length - 1 && <span className="h-px w-3 bg-border sm:w-6" aria-hidden="true" />}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The campaign's settings in four steps: name → audience → senders → schedule. Creating goes on to the
 * steps page (with step 1 from the template when one was chosen); editing saves in place.
 */
export function CampaignFormDialog({
  open,
  onOpenChange,
  campaign,
  template,
  initialName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Edit this campaign instead of creating one. */
  campaign?: Campaign;
  /** Start step 1 from this template. */
  template?: TemplateSummary | null;
  initialName?: string;
}) {
  const nameId = useId();
  const navigate = useNavigate();
  const editing = Boolean(campaign);
  const create = useCreateCampaign();
  const update = useUpdateCampaign(campaign?.id ?? '');
  const pending = create.isPending || update.isPending;
  const [step, setStep] = useState<WizardStep>('name');
  const [form, setForm] = useState<CampaignFormState>(() =>
    campaign ? formFromCampaign(campaign) : emptyCampaignForm(initialName ?? ''),
  );
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  // Each opening starts from the campaign as saved (or a blank form); a background refetch while the
  // dialog is open must not wipe what the user typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new opening resets the form
  useEffect(() => {
    if (!open) return;
    setForm(campaign ? formFromCampaign(campaign) : emptyCampaignForm(initialName ?? ''));
    setStep('name');
    setErrors({});
    setFailure(null);
  }, [open]);

  // A new campaign starts with every active sender account chosen (rotation over all of them; the one
  // account on the free plan): an unchosen list looked like a step that could be skipped.
  const senderAccounts = useSenderAccountList();
  const preselected = useRef(false);
  useEffect(() => {
    if (!open) {
      preselected.current = false;
      return;
    }
    if (editing || preselected.current || !senderAccounts.data) return;
    preselected.current = true;
    const active = senderAccounts.data.filter((a) => a.status === 'active').map((a) => a.id);
    setForm((current) =>
      current.senderAccountIds.length > 0 ? current : { ...current, senderAccountIds: active },
    );
  }, [open, editing, senderAccounts.data]);

  const patch = (next: Partial<CampaignFormState>) => {
    setForm((current) => ({ ...current, ...next }));
    const keys = Object.keys(next);
    setErrors((current) => {
      const copy = { ...current };
      for (const key of keys) delete copy[key as keyof FormErrors];
      if (keys.includes('listIds') || keys.includes('leadFilters')) delete copy.audience;
      return copy;
    });
  };

  const index = WIZARD_STEPS.indexOf(step);
  const last = index === WIZARD_STEPS.length - 1;

  const goNext = () => {
    const found = validateStep(step, form);
    // With accounts to choose from, going on without one is a slip; without any, the draft may wait.
    if (step === 'senders' && form.senderAccountIds.length === 0 && (senderAccounts.data?.length ?? 0) > 0) {
      found.senderAccountIds = 'Choose at least one sender account';
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const next = WIZARD_STEPS[index + 1];
    if (next) setStep(next);
  };

  const submit = async () => {
    // Every step again (the user may have jumped back), then the server's own schema.
    for (const s of WIZARD_STEPS) {
      const found = validateStep(s, form);
      if (Object.keys(found).length > 0) {
        setErrors(found);
        setStep(s);
        return;
      }
    }
    const shared = checkWithSharedSchema(form);
    const firstShared = Object.keys(shared)[0];
    if (firstShared) {
      setErrors(shared);
      setStep(stepOfField(firstShared));
      return;
    }
    setFailure(null);
    const settings = toCampaignSettings(form);
    try {
      if (campaign) {
        await update.mutateAsync(settings);
        toast({ title: 'Campaign saved', description: `“${settings.name}” is up to date.` });
        onOpenChange(false);
        return;
      }
      const { campaign: created, stepError } = await create.mutateAsync({ settings, template });
      onOpenChange(false);
      if (stepError) {
        toast({
          title: 'Campaign created',
          description: `The template could not be added as step 1: ${getErrorMessage(stepError, 'please add it on the steps page')}.`,
          variant: 'destructive',
        });
      } else {
        toast({
          title: 'Campaign created',
          description: template
            ? 'Step 1 starts from the template. Review it, then add follow-ups.'
            : 'Now write its emails.',
        });
      }
      navigate(`/campaigns/${created.id}/steps`);
    } catch (error) {
      const fields = serverFieldErrors(error);
      const first = Object.keys(fields)[0];
      if (first) {
        setErrors(fields);
        setStep(stepOfField(first));
      }
      setFailure(
        getPlanLimitMessage(error) ??
          getErrorMessage(
            error,
            editing ? 'The campaign could not be saved.' : 'The campaign could not be created.',
          ),
      );
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent
        className="flex max-h-[92dvh] flex-col gap-0 p-0 sm:max-w-2xl"
        data-testid="campaign-form-dialog"
      >
        <DialogHeader className="space-y-3 border-b p-5 pr-12">
          <DialogTitle>{editing ? 'Campaign settings' : 'New campaign'}</DialogTitle>
          <DialogDescription className="sr-only">
            Name, audience, sender accounts and schedule of the campaign.
          </DialogDescription>
          <Stepper current={step} onGo={setStep} />
        </DialogHeader>

        <form
          className="flex min-h-0 flex-1 flex-col"
          onSubmit={(event) => {
            event.preventDefault();
            if (last) void submit();
            else goNext();
          }}
          noValidate
        >
          <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-5">
            {template && !editing && step === 'name' && (
              <Alert data-testid="campaign-template-note">
                <FileText aria-hidden="true" />
                <AlertTitle>Starting from “{template.name}”</AlertTitle>
                <AlertDescription>
                  Its subject and body become step 1; you can change them after.
                </AlertDescription>
              </Alert>
            )}
            {failure && (
              <Alert variant="destructive" data-testid="campaign-form-error">
                <AlertDescription>{failure}</AlertDescription>
              </Alert>
            )}

            {step === 'name' && (
              <div className="grid gap-2">
                <Label htmlFor={nameId}>Campaign name</Label>
                <Input
                  id={nameId}
                  value={form.name}
                  onChange={(event) => patch({ name: event.target.value })}
                  placeholder="e.g. Lagos logistics firms — Q3 intro"
                  maxLength={140}
                  aria-invalid={Boolean(errors.name)}
                  aria-describedby={errors.name ? `${nameId}-error` : `${nameId}-hint`}
                  autoFocus
                  data-testid="campaign-name"
                />
                {errors.name ? (
                  <p id={`${nameId}-error`} className="text-sm font-medium text-destructive" role="alert">
                    {errors.name}
                  </p>
                ) : (
                  <p id={`${nameId}-hint`} className="text-xs text-muted-foreground">
                    Only you see it; recipients see the subject lines of its emails.
                  </p>
                )}
              </div>
            )}
            {step === 'audience' && (
              <div className="space-y-6">
                <AudienceFields
                  listIds={form.listIds}
                  segmentIds={form.segmentIds}
                  leadFilters={form.leadFilters}
                  onChange={(next) => patch(next)}
                  error={errors.audience}
                />
                <VerificationSkipField
                  value={form.skipUnverified}
                  onChange={(skipUnverified) => patch({ skipUnverified })}
                />
              </div>
            )}
            {step === 'senders' && (
              <SenderFields
                value={form.senderAccountIds}
                onChange={(senderAccountIds) => patch({ senderAccountIds })}
                error={errors.senderAccountIds}
              />
            )}
            {step === 'schedule' && <ScheduleFields form={form} onChange={patch} errors={errors} />}
          </div>

          <DialogFooter className="flex-row justify-between gap-2 border-t p-4 sm:justify-between">
            <Button
              type="button"
              variant="ghost"
              onClick={() => (index === 0 ? onOpenChange(false) : setStep(WIZARD_STEPS[index - 1] ?? 'name'))}
              disabled={pending}
            >
              {index === 0 ? (
                'Cancel'
              ) : (
                <>
                  <ChevronLeft aria-hidden="true" />
                  Back
                </>
              )}
            </Button>
            <div className="flex gap-2">
              {editing && !last && (
                <Button type="button" variant="outline" onClick={() => void submit()} disabled={pending}>
                  Save
                </Button>
              )}
              <Button
                type="submit"
                disabled={pending}
                data-testid={last ? 'campaign-form-submit' : 'campaign-form-next'}
              >
                {pending ? (
                  <>
                    <Loader2 className="animate-spin" aria-hidden="true" />
                    {editing ? 'Saving…' : 'Creating…'}
                  </>
                ) : last ? (
                  editing ? (
                    'Save settings'
                  ) : (
                    'Create and write emails'
                  )
                ) : (
                  <>
                    Next
                    <ChevronRight aria-hidden="true" />
                  </>
                )}
              </Button>
            </div>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
