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

type Scope = { countryCode: string; category: string };

function ScopeFields({
  value,
  onChange,
}: {
  value: { countryCode: string; category: string };
  onChange: (next: { countryCode: string; category: string }) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-2">
        <Label asChild>
          <span>Country</span>
        </Label>
        <CountryPicker
          multiple={false}
          value={value.countryCode ? [value.countryCode] : []}
          onChange={(next) => onChange({ ...value, countryCode: next[0] ?? '' })}
          placeholder="Choose a country"
          testId="scope-country"
        />
      </div>
      <div className="grid gap-2">
        <Label asChild>
          <span>Category</span>
        </Label>
        <CategoryPicker
          multiple={false}
          value={value.category ? [value.category] : []}
          onChange={(next) => onChange({ ...value, category: next[0] ?? '' })}
          placeholder="Choose a category"
          testId="scope-category"
        />
      </div>
    </div>
  );
}

function useScopeForm(initial: Scope | null, onSaved?: () => void) {
  const save = useSetFreePlanScope();
  const [value, setValue] = useState<Scope>(initial ?? { countryCode: '', category: '' });
  const ready = Boolean(value.countryCode && value.category);
  const submit = () => {
    if (!ready) return;
    save.mutate(value, {
      onSuccess: () => {
        toast({
          title: 'Free plan scope saved',
          description: 'Your searches now cover this country and category.',
        });
        onSaved?.();
      },
    });
  };
  return { save, value, setValue, ready, submit };
}

/** First visit on the Free plan: choose the one country and one category the plan includes. */
export function FreeScopeSetup() {
  const { save, value, setValue, ready, submit } = useScopeForm(null);
  return (
    <Card className="mx-auto w-full max-w-2xl" data-testid="free-scope-setup">
      <CardHeader>
        <div className="mb-2 flex size-11 items-center justify-center rounded-lg bg-secondary text-primary">
          <Globe2 className="size-5" aria-hidden="true" />
        </div>
        <CardTitle>
          <h2>Choose your country and category</h2>
        </CardTitle>
        <CardDescription>
          The Free plan includes one country and one business category of the directory. Pick the market you
          want to reach; you can change it at any time.
        </CardDescription>
      </CardHeader>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <CardContent className="grid gap-4">
          <ScopeFields value={value} onChange={setValue} />
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
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: Scope;
}) {
  const { save, value, setValue, ready, submit } = useScopeForm(scope, () => onOpenChange(false));
  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the saved scope each time it opens
  useEffect(() => {
    if (open) {
      setValue(scope);
      save.reset();
    }
  }, [open]);
  const unchanged = value.countryCode === scope.countryCode && value.category === scope.category;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="free-scope-dialog">
        <DialogHeader>
          <DialogTitle>Change your Free plan scope</DialogTitle>
          <DialogDescription>
            Your searches and lists from the directory cover one country and one category. Contacts already in
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
          <ScopeFields value={value} onChange={setValue} />
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
              Upgrade to Starter, Growth or Pro
            </Link>{' '}
            to search every country and category.
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
