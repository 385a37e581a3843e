import type { ConnectionTestResult, SenderAccount, SenderAccountInput, SenderPreset } from '@shared/sending';
import { AlertCircle, Crown, FlaskConical, PlugZap } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import { cn } from '@/lib/utils';
import {
  useCreateSenderAccount,
  useSenderDefaults,
  useSenderPresets,
  useTestSenderSettings,
  useTrustSenderCertificate,
  useUpdateSenderAccount,
} from '../../api/sender-accounts';
import {
  applyPreset,
  emptySenderForm,
  isDevMailboxPreset,
  matchPreset,
  presetHost,
  type SenderFormValues,
  senderFormFromAccount,
  senderFormResolver,
  toFormField,
  withCustomPreset,
} from '../../lib/sender-form';
import { ConnectionTestResultView, type MailServerKind } from './connection-test-result';
import { PresetPicker } from './preset-picker';
import { SenderAccountFields, type SenderForm } from './sender-account-fields';

/** A refusal the form shows in place: over the plan's limit (with the way up), or any other problem. */
type FormNotice = { kind: 'plan'; message: string } | { kind: 'error'; title: string; message: string };

/** Puts each field problem of a 400 on its field; true when at least one landed. */
function applyFieldErrors(form: SenderForm, error: unknown): boolean {
  const problems = parseApiError(error).data?.errors ?? [];
  const values = form.getValues();
  let applied = false;
  for (const problem of problems) {
    const field = toFormField(problem.path, values);
    if (!field) continue;
    form.setError(field, { type: 'server', message: problem.message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/**
 * Adds or edits a sender account: provider first, then the fields; "Test connection" tries the settings
 * before anything is saved. Used in the settings dialog and inline in quick setup.
 */
export function SenderAccountForm({
  account,
  defaultFromName,
  onSaved,
  onCancel,
  onUseDevMailbox,
  devMailboxPending,
  submitLabel,
  stickyFooter,
}: {
  /** Edit this account; add a new one when absent. */
  account?: SenderAccount;
  defaultFromName?: string;
  onSaved: (account: SenderAccount) => void;
  onCancel?: () => void;
  /** Offered when the test mailbox is picked: adds it in one click instead of filling the form. */
  onUseDevMailbox?: () => void;
  devMailboxPending?: boolean;
  submitLabel?: string;
  /** Keeps the buttons in view while a long form scrolls (in a dialog). */
  stickyFooter?: boolean;
}) {
  const mode = account ? 'edit' : 'create';
  const presetsQuery = useSenderPresets();
  const presets = useMemo(() => withCustomPreset(presetsQuery.data ?? []), [presetsQuery.data]);
  const create = useCreateSenderAccount();
  const update = useUpdateSenderAccount();
  const testSettings = useTestSenderSettings();
  const trustCertificate = useTrustSenderCertificate();
  const saving = create.isPending || update.isPending || trustCertificate.isPending;
  /**
   * Certificates the user chose to trust in this form (fingerprints), tested with and pinned once the
   * account is saved. A change to that server's settings forgets its choice.
   */
  const [trusted, setTrusted] = useState<Partial<Record<MailServerKind, string>>>({});

  const resolver = useMemo(
    () => senderFormResolver({ mode, imapPasswordStored: Boolean(account?.imapEnabled) }),
    [mode, account?.imapEnabled],
  );
  const form = useForm<SenderFormValues, unknown, SenderAccountInput>({
    resolver,
    defaultValues: account ? senderFormFromAccount(account) : emptySenderForm({ fromName: defaultFromName }),
  });

  // A new account starts from the platform's default cap and warm-up, unless the user already changed them.
  const senderDefaults = useSenderDefaults().data;
  useEffect(() => {
    if (account || !senderDefaults) return;
    const { dirtyFields } = form.formState;
    if (!dirtyFields.dailyCap) form.setValue('dailyCap', String(senderDefaults.dailyCap));
    if (!dirtyFields.warmupEnabled) form.setValue('warmupEnabled', senderDefaults.warmupEnabled);
    if (!dirtyFields.warmupStart) form.setValue('warmupStart', String(senderDefaults.warmupStart));
    if (!dirtyFields.warmupIncrement)
      form.setValue('warmupIncrement', String(senderDefaults.warmupIncrement));
  }, [account, senderDefaults, form]);

  const [presetId, setPresetId] = useState('');
  const presetRef = useRef<SenderPreset | undefined>(undefined);
  presetRef.current = presets.find((preset) => preset.id === presetId);
  // The test mailbox's connection is built in: only its identity and limits are the user's to change.
  const connectionLocked = Boolean(account?.isDevMailbox);
  const devMailboxPicked = !account && isDevMailboxPreset(presetId) && Boolean(onUseDevMailbox);
  const [testResult, setTestResult] = useState<ConnectionTestResult | null>(null);
  const [notice, setNotice] = useState<FormNotice | null>(null);

  // Editing: show which provider the saved server belongs to once the presets are in.
  useEffect(() => {
    if (!account || !presetsQuery.data) return;
    setPresetId(matchPreset(withCustomPreset(presetsQuery.data), senderFormFromAccount(account)));
  }, [account, presetsQuery.data]);

  const lastFromEmail = useRef(form.getValues('fromEmail'));

  useEffect(() => {
    const subscription = form.watch((_, { name }) => {
      // A test result describes the settings it ran with; changing the server or sign-in makes it stale.
      if (name && /^(smtp|imap)/.test(name)) {
        setTestResult(null);
        const server = name.startsWith('smtp') ? 'smtp' : 'imap';
        setTrusted((current) => (current[server] ? { ...current, [server]: undefined } : current));
      }
      if (name === 'fromEmail') {
        const { fromEmail, smtpUser, smtpHost, imapHost } = form.getValues();
        const before = lastFromEmail.current;
        // The SMTP user is nearly always the address itself: follow it while the two are the same.
        if (smtpUser === '' || smtpUser === before.trim()) form.setValue('smtpUser', fromEmail.trim());
        // A hosting preset's server is mail.<your domain>: follow the address's domain the same way.
        const preset = presetRef.current;
        if (preset) {
          if (smtpHost === '' || smtpHost === presetHost(preset.smtpHost, before)) {
            form.setValue('smtpHost', presetHost(preset.smtpHost, fromEmail));
          }
          if (preset.imapHost && (imapHost === '' || imapHost === presetHost(preset.imapHost, before))) {
            form.setValue('imapHost', presetHost(preset.imapHost, fromEmail));
          }
        }
        lastFromEmail.current = fromEmail;
      }
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const pickPreset = (preset: SenderPreset) => {
    setPresetId(preset.id);
    const next = applyPreset(form.getValues(), preset);
    for (const key of Object.keys(next) as (keyof SenderFormValues)[]) {
      if (next[key] !== form.getValues(key)) form.setValue(key, next[key], { shouldDirty: true });
    }
    form.clearErrors(['smtpHost', 'smtpPort', 'smtpSecurity', 'imapHost', 'imapPort', 'imapSecurity']);
  };

  const testWith = (input: SenderAccountInput, trust: Partial<Record<MailServerKind, string>>) => {
    setNotice(null);
    setTestResult(null);
    testSettings.mutate(
      {
        ...input,
        ...(account ? { accountId: account.id } : {}),
        ...(trust.smtp ? { smtpTrustFingerprint: trust.smtp } : {}),
        ...(trust.imap ? { imapTrustFingerprint: trust.imap } : {}),
      },
      {
        onSuccess: setTestResult,
        onError: (error) => {
          if (applyFieldErrors(form, error)) return;
          setNotice({
            kind: 'error',
            title: 'The test could not run',
            message: getErrorMessage(error, 'Please try again.'),
          });
        },
      },
    );
  };
  const runTest = form.handleSubmit((input) => testWith(input, trusted));
  const trustAndRetest = (server: MailServerKind, fingerprint: string) => {
    const next = { ...trusted, [server]: fingerprint };
    setTrusted(next);
    void form.handleSubmit((input) => testWith(input, next))();
  };

  const save = form.handleSubmit((input) => {
    setNotice(null);
    const onSuccess = async (saved: SenderAccount) => {
      let result = saved;
      // The certificates trusted while filling the form: pinned now that the account exists.
      for (const server of ['smtp', 'imap'] as const) {
        const fingerprint = trusted[server];
        if (!fingerprint) continue;
        try {
          result = await trustCertificate.mutateAsync({ id: saved.id, server, fingerprint });
        } catch (error) {
          toast({
            title: 'Certificate not trusted',
            description: getErrorMessage(error, 'Test the connection of the account again.'),
            variant: 'destructive',
          });
        }
      }
      toast({
        title: account ? 'Sender account saved' : 'Sender account added',
        description: `${result.fromName} <${result.fromEmail}>`,
      });
      onSaved(result);
    };
    const onError = (error: unknown) => {
      const planLimit = getPlanLimitMessage(error);
      if (planLimit) {
        setNotice({ kind: 'plan', message: planLimit });
        return;
      }
      if (applyFieldErrors(form, error)) return;
      setNotice({
        kind: 'error',
        title: account ? 'Sender account not saved' : 'Sender account not added',
        message: getErrorMessage(error, 'Please try again.'),
      });
    };
    if (account) update.mutate({ id: account.id, input }, { onSuccess, onError });
    else create.mutate(input, { onSuccess, onError });
  });

  const rootError = form.formState.errors.root?.message;

  return (
    <Form {...form}>
      <form
        onSubmit={save}
        noValidate
        className="space-y-8"
        aria-label={account ? 'Edit sender account' : 'Add a sender account'}
        data-testid="sender-account-form"
      >
        {!connectionLocked && (
          <PresetPicker
            presets={presets}
            loading={presetsQuery.isPending}
            value={presetId}
            onChange={pickPreset}
          />
        )}
        {devMailboxPicked && (
          <Alert variant="success" data-testid="sender-dev-mailbox-offer">
            <FlaskConical aria-hidden="true" />
            <AlertTitle>No form to fill</AlertTitle>
            <AlertDescription className="flex flex-col items-start gap-3">
              <span>
                The test mailbox catches every email instead of delivering it, so you can try a campaign
                safely and read what was sent. It does not count towards your plan's sender accounts.
              </span>
              <Button
                type="button"
                size="sm"
                onClick={onUseDevMailbox}
                disabled={devMailboxPending}
                data-testid="sender-use-dev-mailbox"
              >
                {devMailboxPending ? 'Adding…' : 'Use the Tambari test mailbox'}
              </Button>
            </AlertDescription>
          </Alert>
        )}

        {!devMailboxPicked && (
          <SenderAccountFields
            form={form}
            mode={mode}
            storedPasswords={{ smtp: Boolean(account), imap: Boolean(account?.imapEnabled) }}
            connectionLocked={connectionLocked}
          />
        )}

        <div className="space-y-3" aria-live="polite">
          {testResult && (
            <ConnectionTestResultView
              result={testResult}
              onTrust={(server, certificate) => trustAndRetest(server, certificate.fingerprint)}
              trusting={testSettings.isPending}
            />
          )}
          {(trusted.smtp || trusted.imap) && (
            <p className="text-sm text-muted-foreground" data-testid="sender-pending-trust">
              The certificate you trusted is pinned when you save: from then on the account connects only
              while the server presents it.
            </p>
          )}
          {rootError && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>Check the form</AlertTitle>
              <AlertDescription>{rootError}</AlertDescription>
            </Alert>
          )}
          {notice?.kind === 'plan' && (
            <Alert variant="warning" data-testid="sender-plan-limit">
              <Crown aria-hidden="true" />
              <AlertTitle>Your plan's sender accounts are all in use</AlertTitle>
              <AlertDescription className="flex flex-col items-start gap-2">
                <span>{notice.message}</span>
                <Button asChild size="sm" variant="outline">
                  <Link to="/upgrade">See plans and upgrade</Link>
                </Button>
              </AlertDescription>
            </Alert>
          )}
          {notice?.kind === 'error' && (
            <Alert variant="destructive" data-testid="sender-form-error">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>{notice.title}</AlertTitle>
              <AlertDescription>{notice.message}</AlertDescription>
            </Alert>
          )}
        </div>

        <div
          className={cn(
            'flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end',
            stickyFooter && 'sticky -bottom-6 z-10 -mx-6 -mb-6 border-t bg-background px-6 py-4',
          )}
        >
          {onCancel && (
            <Button type="button" variant="ghost" onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
          )}
          {!connectionLocked && !devMailboxPicked && (
            <Button
              type="button"
              variant="outline"
              onClick={runTest}
              disabled={testSettings.isPending || saving}
              data-testid="sender-test-connection"
            >
              <PlugZap aria-hidden="true" />
              {testSettings.isPending ? 'Testing…' : 'Test connection'}
            </Button>
          )}
          {!devMailboxPicked && (
            <Button type="submit" disabled={saving} data-testid="sender-save">
              {saving ? 'Saving…' : (submitLabel ?? (account ? 'Save changes' : 'Add sender account'))}
            </Button>
          )}
        </div>
      </form>
    </Form>
  );
}
