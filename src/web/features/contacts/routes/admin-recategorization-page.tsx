import { categoryName } from '@shared/categories';
import type { Recategorization } from '@shared/recategorization';
import { ArrowLeft, Eye, Undo2, Wand2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CategoryPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  type RuleInput,
  useApplyRecategorization,
  usePreviewRecategorization,
  useRecategorizations,
  useUndoRecategorization,
} from '../api/recategorization';

function describeRule(rule: Recategorization['rule']): string {
  const parts = [
    rule.keyword ? `name contains “${rule.keyword}”` : null,
    rule.fromCategories.length ? `in ${rule.fromCategories.map(categoryName).join(', ')}` : null,
    rule.countries.length ? `in ${rule.countries.join(', ')}` : null,
  ].filter(Boolean);
  return `${parts.join(' · ')} → ${categoryName(rule.toCategory)}`;
}

/** Moves directory records between categories by rule: preview, apply (audited), undo. */
export default function AdminRecategorizationPage() {
  const [rule, setRule] = useState<RuleInput>({
    keyword: '',
    fromCategories: [],
    countries: [],
    toCategory: '',
  });
  const [confirming, setConfirming] = useState(false);
  const [undoing, setUndoing] = useState<Recategorization | null>(null);
  const preview = usePreviewRecategorization();
  const apply = useApplyRecategorization();
  const undo = useUndoRecategorization();
  const history = useRecategorizations();
  const set = <K extends keyof RuleInput>(key: K, value: RuleInput[K]) => {
    setRule((current) => ({ ...current, [key]: value }));
    preview.reset();
  };

  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate(rule, {
      onError: (error) =>
        toast({
          title: 'No preview',
          description: getErrorMessage(error, 'Check the rule.'),
          variant: 'destructive',
        }),
    });
  };

  const onApply = () =>
    apply.mutate(rule, {
      onSuccess: (move) => {
        toast({
          title: 'Recategorized',
          description: `${formatNumber(move.moved)} records moved to ${categoryName(move.rule.toCategory)}.`,
        });
        setConfirming(false);
        preview.reset();
      },
      onError: (error) => {
        toast({
          title: 'Not applied',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
        setConfirming(false);
      },
    });

  const onUndo = () => {
    if (!undoing) return;
    undo.mutate(undoing.id, {
      onSuccess: (move) => {
        toast({ title: 'Undone', description: `${formatNumber(move.restored ?? 0)} records moved back.` });
        setUndoing(null);
      },
      onError: (error) => {
        toast({
          title: 'Not undone',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
        setUndoing(null);
      },
    });
  };

  const count = preview.data?.count ?? 0;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6" data-testid="recategorization-page">
      <div className="space-y-2">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link to="/admin/contact-database">
            <ArrowLeft aria-hidden="true" />
            Contact Database
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold tracking-tight">Recategorization</h1>
        <p className="text-muted-foreground">
          Move directory records between categories by rule. Preview what a rule picks, apply it, and undo it
          if it was wrong: records edited since keep their newer category.
        </p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Rule</CardTitle>
          <CardDescription>Records matching every part you fill in move to the new category.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4 md:grid-cols-2" onSubmit={onPreview}>
            <div className="space-y-1">
              <Label htmlFor="recat-keyword">Business name contains</Label>
              <Input
                id="recat-keyword"
                value={rule.keyword}
                onChange={(e) => set('keyword', e.target.value)}
                placeholder="haulage"
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="recat-from">Now in</Label>
              <CategoryPicker
                id="recat-from"
                label="Now in"
                placeholder="Any category"
                value={rule.fromCategories}
                onChange={(next) => set('fromCategories', next)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="recat-countries">Countries</Label>
              <CountryPicker
                id="recat-countries"
                label="Countries"
                placeholder="All countries"
                value={rule.countries}
                onChange={(next) => set('countries', next)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="recat-to">Move to</Label>
              <CategoryPicker
                id="recat-to"
                label="Move to"
                multiple={false}
                placeholder="Choose a category"
                value={rule.toCategory ? [rule.toCategory] : []}
                onChange={(next) => set('toCategory', next[0] ?? '')}
                testId="recat-to"
              />
            </div>
            <div className="flex flex-wrap gap-2 md:col-span-2">
              <Button type="submit" variant="outline" disabled={!rule.toCategory || preview.isPending}>
                <Eye aria-hidden="true" />
                Preview
              </Button>
              <Button
                type="button"
                disabled={!preview.data || count === 0}
                onClick={() => setConfirming(true)}
              >
                <Wand2 aria-hidden="true" />
                Apply to {formatNumber(count)} records
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      {preview.data && (
        <Card data-testid="recat-preview">
          <CardHeader>
            <CardTitle>{formatNumber(count)} records match</CardTitle>
            <CardDescription>
              {count > preview.data.sample.length
                ? `The first ${preview.data.sample.length} by name:`
                : 'All of them:'}
            </CardDescription>
          </CardHeader>
          <CardContent className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Business</TableHead>
                  <TableHead>Country</TableHead>
                  <TableHead>Category now</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {preview.data.sample.map((row) => (
                  <TableRow key={row.id}>
                    <TableCell className="font-medium">{row.companyName}</TableCell>
                    <TableCell>{row.countryCode}</TableCell>
                    <TableCell>{categoryName(row.category)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle>History</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          {history.isError && <QueryError title="History could not be loaded" error={history.error} />}
          {history.data?.moves.length === 0 && <p className="text-sm text-muted-foreground">No moves yet.</p>}
          <ul className="space-y-2">
            {history.data?.moves.map((move) => (
              <li
                key={move.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
              >
                <div className="min-w-0 space-y-0.5">
                  <p className="text-sm font-medium">{describeRule(move.rule)}</p>
                  <p className="text-xs text-muted-foreground">
                    {formatNumber(move.moved)} moved · {formatDateTime(move.createdAt)}
                    {move.createdByEmail ? ` · ${move.createdByEmail}` : ''}
                    {move.undoneAt
                      ? ` · undone ${formatDateTime(move.undoneAt)} (${formatNumber(move.restored ?? 0)} back)`
                      : ''}
                  </p>
                </div>
                {move.state === 'applied' ? (
                  <Button size="sm" variant="outline" onClick={() => setUndoing(move)}>
                    <Undo2 aria-hidden="true" />
                    Undo
                  </Button>
                ) : (
                  <Badge variant="secondary">Undone</Badge>
                )}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Move ${formatNumber(count)} records?`}
        description={`They move to ${rule.toCategory ? categoryName(rule.toCategory) : ''}. You can undo this from the history.`}
        confirmLabel="Apply"
        pending={apply.isPending}
        onConfirm={onApply}
      />
      <ConfirmDialog
        open={undoing !== null}
        onOpenChange={(open) => !open && setUndoing(null)}
        title="Undo this move?"
        description="Records still in the category it gave them go back to where they were."
        confirmLabel="Undo"
        pending={undo.isPending}
        onConfirm={onUndo}
      />
    </div>
  );
}
