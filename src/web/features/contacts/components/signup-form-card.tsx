import { DEFAULT_CONSENT_TEXT, type SignupForm, signupFormInputSchema } from '@shared/signup-forms';
import { Copy, ExternalLink, FormInput } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useDeleteSignupForm, useSaveSignupForm, useSignupForm } from '../api/signup-form';

interface Draft {
  title: string;
  description: string;
  consentText: string;
  enabled: boolean;
}

function draftOf(form: SignupForm | null, listName: string): Draft {
  return form
    ? {
        title: form.title,
        description: form.description,
        consentText: form.consentText,
        enabled: form.enabled,
      }
    : {
        title: `Subscribe to ${listName}`,
        description: '',
        consentText: DEFAULT_CONSENT_TEXT,
        enabled: true,
      };
}

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
  } catch {
    toast({
      title: 'Could not copy',
      description: 'Select the text and copy it by hand.',
      variant: 'destructive',
    });
  }
}

/**
 * "Subscribe form": a hosted page and an embeddable HTML form that add people to this list once they
 * confirm by email (double opt-in), with their consent kept.
 */
export function SignupFormCard({ listId, listName }: { listId: string; listName: string }) {
  const id = useId();
  const query = useSignupForm(listId);
  const save = useSaveSignupForm(listId);
  const remove = useDeleteSignupForm(listId);
  const form = query.data?.form ?? null;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(null, listName));
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});

  useEffect(() => {
    if (query.data) setDraft(draftOf(query.data.form, listName));
  }, [query.data, listName]);

  if (!query.data) return null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = signupFormInputSchema.safeParse(draft);
    if (!parsed.success) {
      const next: Partial<Record<keyof Draft, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Draft] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        setEditing(false);
        toast({ title: form ? 'Subscribe form saved' : 'Subscribe form created' });
      },
      onError: (error) =>
        toast({
          title: 'Not saved',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <Card className="py-4" data-testid="signup-form-card">
      <CardContent className="space-y-3 px-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="space-y-1">
            <p className="flex items-center gap-2 font-medium">
              Subscribe form
              {form && (
                <Badge variant={form.enabled ? 'default' : 'secondary'}>
                  {form.enabled ? 'Open' : 'Closed'}
                </Badge>
              )}
            </p>
            <p className="text-sm text-muted-foreground">
              {form
                ? `${formatNumber(form.confirmed)} confirmed, ${formatNumber(form.pending)} waiting to confirm. People join only after confirming by email.`
                : 'A page and an HTML form for your website where people subscribe to this list. They join after confirming by email (double opt-in), and their consent is recorded.'}
            </p>
          </div>
          {!editing && (
            <Button variant="outline" onClick={() => setEditing(true)} data-testid="signup-form-edit">
              <FormInput aria-hidden="true" />
              {form ? 'Edit form' : 'Set up a form'}
            </Button>
          )}
        </div>

        {form && !editing && (
          <div className="space-y-3">
            <div className="flex flex-wrap items-center gap-2">
              <a
                href={form.hostedUrl}
                target="_blank"
                rel="noreferrer"
                className="break-all text-sm underline underline-offset-2"
                data-testid="signup-form-url"
              >
                {form.hostedUrl}
                <ExternalLink className="ml-1 inline size-3" aria-hidden="true" />
              </a>
              <Button variant="ghost" size="sm" onClick={() => copy(form.hostedUrl, 'Link')}>
                <Copy aria-hidden="true" />
                Copy link
              </Button>
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-embed`}>HTML to paste into your website</Label>
              <Textarea
                id={`${id}-embed`}
                readOnly
                value={form.embedHtml}
                rows={6}
                className="font-mono text-xs"
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button variant="ghost" size="sm" onClick={() => copy(form.embedHtml, 'HTML')}>
                <Copy aria-hidden="true" />
                Copy HTML
              </Button>
            </div>
          </div>
        )}

        {editing && (
          <form className="grid gap-3" onSubmit={onSubmit} noValidate>
            <div className="space-y-1">
              <Label htmlFor={`${id}-title`}>Title</Label>
              <Input
                id={`${id}-title`}
                value={draft.title}
                onChange={(e) => setDraft({ ...draft, title: e.target.value })}
                aria-invalid={errors.title ? true : undefined}
              />
              {errors.title && <p className="text-sm text-destructive">{errors.title}</p>}
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-description`}>What subscribers get (optional)</Label>
              <Textarea
                id={`${id}-description`}
                value={draft.description}
                rows={2}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
                aria-invalid={errors.description ? true : undefined}
              />
              {errors.description && <p className="text-sm text-destructive">{errors.description}</p>}
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-consent`}>Consent text beside the checkbox</Label>
              <Textarea
                id={`${id}-consent`}
                value={draft.consentText}
                rows={2}
                onChange={(e) => setDraft({ ...draft, consentText: e.target.value })}
                aria-invalid={errors.consentText ? true : undefined}
              />
              {errors.consentText ? (
                <p className="text-sm text-destructive">{errors.consentText}</p>
              ) : (
                <p className="text-xs text-muted-foreground">
                  Kept with each signup as the text they agreed to.
                </p>
              )}
            </div>
            <div className="flex items-center gap-2">
              <Switch
                id={`${id}-enabled`}
                checked={draft.enabled}
                onCheckedChange={(enabled) => setDraft({ ...draft, enabled })}
              />
              <Label htmlFor={`${id}-enabled`} className="font-normal">
                Open for signups
              </Label>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={save.isPending} data-testid="signup-form-save">
                Save form
              </Button>
              <Button
                type="button"
                variant="ghost"
                onClick={() => {
                  setEditing(false);
                  setDraft(draftOf(form, listName));
                  setErrors({});
                }}
              >
                Cancel
              </Button>
              {form && (
                <Button
                  type="button"
                  variant="ghost"
                  className="text-destructive"
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(undefined, {
                      onSuccess: () => {
                        setEditing(false);
                        toast({ title: 'Subscribe form removed' });
                      },
                    })
                  }
                >
                  Remove form
                </Button>
              )}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
