import {
  SENDER_DAILY_CAP_MAX,
  SENDER_SIGNATURE_MAX,
  type SenderAccountInput,
  type SmtpSecurity,
} from '@shared/sending';
import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { PasswordInput } from '@/components/password-input';
import { Checkbox } from '@/components/ui/checkbox';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import {
  describeWarmup,
  IMAP_PORT_HINT,
  type SenderFormMode,
  type SenderFormValues,
  SMTP_PORT_HINT,
} from '../../lib/sender-form';
import { TimeZonePicker } from './time-zone-picker';

export type SenderForm = UseFormReturn<SenderFormValues, unknown, SenderAccountInput>;

const SECURITY_LABELS: Record<SmtpSecurity, string> = {
  tls: 'SSL/TLS',
  starttls: 'STARTTLS',
  none: 'None (not encrypted)',
};

/** The usual security of a well-known port, so picking the port sets it too. */
const SECURITY_FOR_PORT: Record<string, SmtpSecurity> = {
  '465': 'tls',
  '587': 'starttls',
  '993': 'tls',
  '143': 'starttls',
};

const Optional = () => <span className="font-normal text-muted-foreground">(optional)</span>;

function Group({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="space-y-4">
      <div className="space-y-1">
        <legend className="text-base font-semibold">{title}</legend>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </fieldset>
  );
}

function TextField({
  form,
  name,
  label,
  description,
  optional,
  type = 'text',
  autoComplete,
  placeholder,
  inputMode,
  className,
  disabled,
}: {
  form: SenderForm;
  name: keyof SenderFormValues;
  label: string;
  description?: ReactNode;
  optional?: boolean;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'email' | 'text' | 'url';
  className?: string;
  disabled?: boolean;
}) {
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>
            {label} {optional && <Optional />}
          </FormLabel>
          <FormControl>
            <Input
              {...field}
              value={String(field.value ?? '')}
              type={type}
              autoComplete={autoComplete}
              placeholder={placeholder}
              inputMode={inputMode}
              disabled={disabled}
              spellCheck={false}
              data-testid={`sender-${name}`}
            />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function PortField({
  form,
  name,
  securityName,
  label,
}: {
  form: SenderForm;
  name: 'smtpPort' | 'imapPort';
  securityName: 'smtpSecurity' | 'imapSecurity';
  label: string;
}) {
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input
              {...field}
              onChange={(event) => {
                field.onChange(event);
                const security = SECURITY_FOR_PORT[event.target.value.trim()];
                if (security) form.setValue(securityName, security, { shouldDirty: true });
              }}
              inputMode="numeric"
              maxLength={5}
              data-testid={`sender-${name}`}
            />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function SecurityField({ form, name }: { form: SenderForm; name: 'smtpSecurity' | 'imapSecurity' }) {
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>Security</FormLabel>
          <Select value={field.value} onValueChange={field.onChange}>
            <FormControl>
              <SelectTrigger className="w-full" data-testid={`sender-${name}`}>
                <SelectValue />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {(Object.keys(SECURITY_LABELS) as SmtpSecurity[]).map((security) => (
                <SelectItem key={security} value={security}>
                  {SECURITY_LABELS[security]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function PasswordField({
  form,
  name,
  label,
  mode,
  stored,
}: {
  form: SenderForm;
  name: 'smtpPassword' | 'imapPassword';
  label: string;
  mode: SenderFormMode;
  stored: boolean;
}) {
  const keep = mode === 'edit' && stored;
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <PasswordInput
              {...field}
              autoComplete="new-password"
              placeholder={keep ? 'Saved — leave blank to keep it' : undefined}
              toggleTestId={`sender-${name}-toggle`}
              data-testid={`sender-${name}`}
            />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function SwitchField({
  form,
  name,
  label,
  description,
}: {
  form: SenderForm;
  name: 'imapEnabled' | 'warmupEnabled';
  label: string;
  description: string;
}) {
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem className="flex flex-row items-start justify-between gap-4 rounded-md border p-3">
          <div className="space-y-1">
            <FormLabel>{label}</FormLabel>
            <FormDescription>{description}</FormDescription>
          </div>
          <FormControl>
            <Switch
              checked={Boolean(field.value)}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              data-testid={`sender-${name}`}
            />
          </FormControl>
        </FormItem>
      )}
    />
  );
}

/**
 * The account's fields in four groups: who the mail is from, how it goes out (SMTP), how replies and
 * bounces come back (IMAP), and how much it may send.
 */
export function SenderAccountFields({
  form,
  mode,
  storedPasswords,
  connectionLocked = false,
}: {
  form: SenderForm;
  mode: SenderFormMode;
  storedPasswords: { smtp: boolean; imap: boolean };
  /** The built-in test mailbox: its servers are Tambari's own, so they are not shown for editing. */
  connectionLocked?: boolean;
}) {
  const imapEnabled = form.watch('imapEnabled');
  const imapSameAsSmtp = form.watch('imapSameAsSmtp');
  const warmupEnabled = form.watch('warmupEnabled');
  const warmup = describeWarmup({
    warmupStart: form.watch('warmupStart'),
    warmupIncrement: form.watch('warmupIncrement'),
    dailyCap: form.watch('dailyCap'),
  });

  return (
    <div className="space-y-8">
      <Group title="Identity" description="Who your emails are from, as recipients see it.">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField form={form} name="fromName" label="From name" autoComplete="name" />
          <TextField
            form={form}
            name="fromEmail"
            label="From email"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="you@yourcompany.com"
          />
          <TextField
            form={form}
            name="replyTo"
            label="Reply-to"
            optional
            type="email"
            inputMode="email"
            description="Where replies go when not to the from address."
          />
          <TextField
            form={form}
            name="company"
            label="Company"
            optional
            autoComplete="organization"
            placeholder="Kano Foods Ltd"
            description="Who “we” are: {{ senderCompany }} in your emails."
          />
        </div>
        <FormField
          control={form.control}
          name="postalAddress"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Postal address</FormLabel>
              <FormControl>
                <Textarea
                  {...field}
                  rows={2}
                  maxLength={300}
                  placeholder="12 Admiralty Way, Lekki Phase 1, Lagos, Nigeria"
                  data-testid="sender-postalAddress"
                />
              </FormControl>
              <FormDescription>
                Shown in the footer of every email, next to the unsubscribe link, as anti-spam laws require.
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="signature"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                Reply signature <Optional />
              </FormLabel>
              <FormControl>
                <Textarea
                  {...field}
                  rows={3}
                  maxLength={SENDER_SIGNATURE_MAX}
                  placeholder={'Ada Okafor\nSales, Kano Foods Ltd'}
                  data-testid="sender-signature"
                />
              </FormControl>
              <FormDescription>Added below replies sent from the inbox.</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
      </Group>

      {connectionLocked ? (
        <p className="rounded-md border bg-muted/40 p-3 text-sm text-muted-foreground">
          This is the built-in test mailbox: Tambari connects it for you, and every email it sends stays in
          the development mailbox.
        </p>
      ) : (
        <>
          <Group title="Outgoing mail (SMTP)" description="The server your emails are sent through.">
            <div className="grid grid-cols-2 items-start gap-4 sm:grid-cols-[1fr_7rem_10rem]">
              <TextField
                form={form}
                name="smtpHost"
                label="SMTP host"
                placeholder="smtp.yourhost.com"
                autoComplete="off"
                className="col-span-2 sm:col-span-1"
              />
              <PortField form={form} name="smtpPort" securityName="smtpSecurity" label="Port" />
              <SecurityField form={form} name="smtpSecurity" />
            </div>
            <p className="-mt-2 text-sm text-muted-foreground">{SMTP_PORT_HINT}</p>
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <TextField
                form={form}
                name="smtpUser"
                label="User name"
                autoComplete="off"
                description="Usually the full email address."
              />
              <PasswordField
                form={form}
                name="smtpPassword"
                label="Password"
                mode={mode}
                stored={storedPasswords.smtp}
              />
            </div>
            <TextField
              form={form}
              name="dkimSelector"
              label="DKIM selector"
              optional
              placeholder="e.g. google, selector1, s1"
              description="Only if your host signs mail with its own selector; otherwise the common ones are tried."
            />
          </Group>

          <Group
            title="Incoming mail for replies and bounces"
            description="With IMAP, Tambari reads the mailbox: a reply stops that contact's sequence, a bounce suppresses the address."
          >
            <SwitchField
              form={form}
              name="imapEnabled"
              label="Read replies and bounces (IMAP)"
              description="Recommended. Without it, replies and bounces are not tracked."
            />
            {imapEnabled && (
              <div className="space-y-4" data-testid="sender-imap-fields">
                <div className="grid grid-cols-2 items-start gap-4 sm:grid-cols-[1fr_7rem_10rem]">
                  <TextField
                    form={form}
                    name="imapHost"
                    label="IMAP host"
                    placeholder="imap.yourhost.com"
                    autoComplete="off"
                    className="col-span-2 sm:col-span-1"
                  />
                  <PortField form={form} name="imapPort" securityName="imapSecurity" label="Port" />
                  <SecurityField form={form} name="imapSecurity" />
                </div>
                <p className="-mt-2 text-sm text-muted-foreground">{IMAP_PORT_HINT}</p>
                <FormField
                  control={form.control}
                  name="imapSameAsSmtp"
                  render={({ field }) => (
                    <FormItem className="flex flex-row items-center gap-2">
                      <FormControl>
                        <Checkbox
                          checked={Boolean(field.value)}
                          onCheckedChange={(checked) => field.onChange(checked === true)}
                          data-testid="sender-imapSameAsSmtp"
                        />
                      </FormControl>
                      <FormLabel className="font-normal">
                        Same user name and password as outgoing mail
                      </FormLabel>
                    </FormItem>
                  )}
                />
                {!imapSameAsSmtp && (
                  <div className="grid items-start gap-4 sm:grid-cols-2">
                    <TextField form={form} name="imapUser" label="IMAP user name" autoComplete="off" />
                    <PasswordField
                      form={form}
                      name="imapPassword"
                      label="IMAP password"
                      mode={mode}
                      stored={storedPasswords.imap}
                    />
                  </div>
                )}
                <FormField
                  control={form.control}
                  name="sentFolderEnabled"
                  render={({ field }) => (
                    <FormItem className="flex flex-row items-start gap-2">
                      <FormControl>
                        <Checkbox
                          checked={Boolean(field.value)}
                          onCheckedChange={(checked) => field.onChange(checked === true)}
                          data-testid="sender-sentFolderEnabled"
                        />
                      </FormControl>
                      <div className="space-y-1">
                        <FormLabel className="font-normal">Copy sent emails to my Sent folder</FormLabel>
                        <FormDescription>
                          So campaign emails appear in your mail app's Sent folder, like the ones you send
                          yourself.
                        </FormDescription>
                      </div>
                    </FormItem>
                  )}
                />
              </div>
            )}
          </Group>
        </>
      )}

      <Group title="Limits" description="How much this account may send, and when its day starts.">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            form={form}
            name="dailyCap"
            label="Daily limit"
            inputMode="numeric"
            description={`Emails a day, at most ${SENDER_DAILY_CAP_MAX}: more from one mailbox looks like spam to providers. Add accounts to send more.`}
          />
          <FormField
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Time zone</FormLabel>
                <FormControl>
                  <TimeZonePicker value={field.value} onChange={field.onChange} />
                </FormControl>
                <FormDescription>The daily count restarts at midnight here.</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <SwitchField
          form={form}
          name="warmupEnabled"
          label="Warm up a new mailbox"
          description="Start with a few emails a day and add more each day, so providers learn to trust it."
        />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            form={form}
            name="warmupStart"
            label="First day"
            inputMode="numeric"
            disabled={!warmupEnabled}
            description="Emails on day 1."
          />
          <TextField
            form={form}
            name="warmupIncrement"
            label="Add each day"
            inputMode="numeric"
            disabled={!warmupEnabled}
            description="Extra emails allowed each following day."
          />
        </div>
        {warmupEnabled && warmup && (
          <p className="text-sm text-muted-foreground" data-testid="sender-warmup-summary">
            {warmup}
          </p>
        )}
      </Group>
    </div>
  );
}
