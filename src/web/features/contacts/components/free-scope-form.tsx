import { Crown, Globe2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { CategoryPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useSetFreePlanScope } from '../api/leads';
import {
  includedPhrase,
  type LeadScope,
  type LeadScopeLimits,
  scopeNoun,
  scopeProblem,
} from '../lib/browse-params';

function ScopeFields({
  value,
  onChange,
  limits,
}: {
  value: LeadScope;
  onChange: (next: LeadScope) => void;
  limits: LeadScopeLimits;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {limits.countries > 0 && (
        <div className="grid gap-2">
          <Label asChild>
            <span>{limits.countries === 1 ? 'Country' : `Countries (up to ${limits.countries})`}</span>
          </Label>
          <CountryPicker
            multiple={limits.countries !== 1}
            value={value.countryCodes}
            onChange={(next) => onChange({ ...value, countryCodes: next })}
            placeholder={limits.countries === 1 ? 'Choose a country' : 'Choose countries'}
            testId="scope-country"
          />
        </div>
      )}
      {limits.categories > 0 && (
        <div className="grid gap-2">
          <Label asChild>
            <span>{limits.categories === 1 ? 'Category' : `Categories (up to ${limits.categories})`}</span>
          </Label>
          <CategoryPicker
            multiple={limits.categories !== 1}
            value={value.categories}
            onChange={(next) => onChange({ ...value, categories: next })}
            placeholder={limits.categories === 1 ? 'Choose a category' : 'Choose categories'}
            testId="scope-category"
          />
        </div>
      )}
    </div>
  );
}

const EMPTY_SCOPE: LeadScope = { countryCodes: [], categories: [] };

function useScopeForm(initial: LeadScope | null, limits: LeadScopeLimits, onSaved?: () => void) {
  const save = useSetFreePlanScope();
  const [value, setValue] = useState<LeadScope>(initial ?? EMPTY_SCOPE);
  const problem = scopeProblem(value, limits);
  const ready = problem === null;
  const submit = () => {
    if (!ready) return;
    save.mutate(value, {
      onSuccess: () => {
        toast({
          title: 'Directory choice saved',
          description: `Your searches now cover the ${scopeNoun(limits)} you chose.`,
        });
        onSaved?.();
      },
    });
  };
  return { save, value, setValue, ready, problem, submit };
}

/** The way out of a plan that includes none of the directory (a country or category limit of 0). */
export function NoDirectoryAccess() {
  return (
    <Card className="mx-auto w-full max-w-2xl" data-testid="no-directory-access">
      <CardHeader>
        <CardTitle>
          <h2>Lead discovery is not in your plan</h2>
        </CardTitle>
        <CardDescription>
          Your plan does not include any country or category of the lead directory. Your own lists, imports
          and campaigns work as before.
        </CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild>
          <Link to="/upgrade">
            <Crown aria-hidden="true" />
            See the plans
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

/** First visit on a plan that limits the directory: choose the countries and categories it includes. */
export function FreeScopeSetup({ limits, initial }: { limits: LeadScopeLimits; initial?: LeadScope | null }) {
  const { save, value, setValue, ready, submit } = useScopeForm(initial ?? null, limits);
  const included = includedPhrase(limits);
  return (
    <Card className="mx-auto w-full max-w-2xl" data-testid="free-scope-setup">
      <CardHeader>
        <div className="mb-2 flex size-11 items-center justify-center rounded-lg bg-secondary text-primary">
          <Globe2 className="size-5" aria-hidden="true" />
        </div>
        <CardTitle>
          <h2>Choose your {scopeNoun(limits)}</h2>
        </CardTitle>
        <CardDescription>
          Your plan includes {included} of the directory. Pick the market you want to reach; you can change it
          at any time.
        </CardDescription>
      </CardHeader>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <CardContent className="grid gap-4">
          <ScopeFields value={value} onChange={setValue} limits={limits} />
          {save.isError && (
            <Alert variant="destructive">
              <AlertDescription>
                {getErrorMessage(save.error, 'Your choice could not be saved.')}
              </AlertDescription>
            </Alert>
          )}
        </CardContent>
        <CardFooter className="mt-6 flex flex-col items-stretch gap-3 border-t pt-6 sm:flex-row sm:items-center sm:justify-between">
          <Link
            to="/upgrade"
            className="inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline"
          >
            <Crown className="size-4" aria-hidden="true" />
            Upgrade for every country and category
          </Link>
          <Button type="submit" disabled={!ready || save.isPending} data-testid="save-free-scope">
            {save.isPending ? 'Saving…' : 'Start browsing'}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

export function FreeScopeDialog({
  open,
  onOpenChange,
  scope,
  limits,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: LeadScope;
  limits: LeadScopeLimits;
}) {
  const { save, value, setValue, ready, problem, submit } = useScopeForm(scope, limits, () =>
    onOpenChange(false),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the saved scope each time it opens
  useEffect(() => {
    if (open) {
      setValue(scope);
      save.reset();
    }
  }, [open]);
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((item) => b.includes(item));
  const unchanged = same(value.countryCodes, scope.countryCodes) && same(value.categories, scope.categories);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="free-scope-dialog">
        <DialogHeader>
          <DialogTitle>Change your directory choice</DialogTitle>
          <DialogDescription>
            Your searches and lists from the directory cover {includedPhrase(limits)}. Contacts already in
            your lists stay there.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <ScopeFields value={value} onChange={setValue} limits={limits} />
          {problem && !unchanged && <p className="text-sm text-muted-foreground">{problem}</p>}
          {save.isError && (
            <Alert variant="destructive">
              <AlertDescription>
                {getErrorMessage(save.error, 'Your choice could not be saved.')}
              </AlertDescription>
            </Alert>
          )}
          <p className="text-sm text-muted-foreground">
            Need more markets?{' '}
            <Link to="/upgrade" className="font-medium text-primary hover:underline">
              Upgrade your plan
            </Link>{' '}
            to search more countries and categories.
          </p>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={!ready || unchanged || save.isPending}
              data-testid="save-free-scope"
            >
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
