import {
  BLOCK_TYPE_LABELS,
  BLOCK_TYPES,
  type ColumnBlock,
  MAX_COLUMN_BLOCKS,
  MAX_NEWSLETTER_BLOCKS,
  type NewsletterBlock,
  type NewsletterBlockType,
} from '@shared/newsletters';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { BlockIssue } from '../lib/block-issues';
import { insertBlock } from '../lib/block-issues';
import { moveItem, newBlock, newColumnBlock, replaceAt } from '../lib/blocks';
import { BlockFields } from './block-fields';

const COLUMN_TYPES: ColumnBlock['type'][] = ['heading', 'text', 'image', 'button'];

function AddBlockMenu({
  types,
  onAdd,
  disabled,
  label = 'Add block',
  testId,
}: {
  types: readonly NewsletterBlockType[];
  onAdd: (type: NewsletterBlockType) => void;
  disabled?: boolean;
  label?: string;
  testId?: string;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button type="button" variant="outline" size="sm" disabled={disabled} data-testid={testId}>
          <Plus className="size-4" /> {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        {types.map((type) => (
          <DropdownMenuItem
            key={type}
            onSelect={() => onAdd(type)}
            data-testid={testId ? `${testId}-${type}` : undefined}
          >
            {BLOCK_TYPE_LABELS[type]}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function BlockActions({
  index,
  count,
  onMove,
  onRemove,
  label,
}: {
  index: number;
  count: number;
  onMove: (delta: number) => void;
  onRemove: () => void;
  label: string;
}) {
  return (
    <div className="flex items-center gap-0.5">
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Move ${label} up`}
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <ArrowUp className="size-4" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Move ${label} down`}
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <ArrowDown className="size-4" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Delete ${label}`}
        onClick={onRemove}
      >
        <Trash2 className="size-4" />
      </Button>
    </div>
  );
}

function ColumnsFields({
  block,
  onChange,
}: {
  block: Extract<NewsletterBlock, { type: 'columns' }>;
  onChange: (block: NewsletterBlock) => void;
}) {
  const setColumn = (side: 0 | 1, items: ColumnBlock[]) => {
    const columns: [ColumnBlock[], ColumnBlock[]] =
      side === 0 ? [items, block.columns[1]] : [block.columns[0], items];
    onChange({ ...block, columns });
  };
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {([0, 1] as const).map((side) => {
        const items = block.columns[side];
        return (
          <div key={side} className="space-y-3 rounded-md border border-dashed p-3">
            <p className="text-xs font-medium text-muted-foreground">
              {side === 0 ? 'Left column' : 'Right column'}
            </p>
            {items.map((item, i) => (
              <div key={item.id} className="space-y-2 rounded-md bg-muted/40 p-2">
                <div className="flex items-center justify-between">
                  <span className="text-xs font-medium">{BLOCK_TYPE_LABELS[item.type]}</span>
                  <BlockActions
                    index={i}
                    count={items.length}
                    label={BLOCK_TYPE_LABELS[item.type].toLowerCase()}
                    onMove={(delta) => setColumn(side, moveItem(items, i, delta))}
                    onRemove={() =>
                      setColumn(
                        side,
                        items.filter((_, j) => j !== i),
                      )
                    }
                  />
                </div>
                <BlockFields
                  block={item}
                  onChange={(next) => setColumn(side, replaceAt(items, i, next as ColumnBlock))}
                />
              </div>
            ))}
            <AddBlockMenu
              types={COLUMN_TYPES}
              label="Add to column"
              disabled={items.length >= MAX_COLUMN_BLOCKS}
              onAdd={(type) => setColumn(side, [...items, newColumnBlock(type as ColumnBlock['type'])])}
            />
          </div>
        );
      })}
    </div>
  );
}

/** The newsletter as a column of block cards: add, move, delete, and edit each block in place. */
export function BlockEditor({
  blocks,
  onChange,
  readOnly,
  issues = [],
}: {
  blocks: NewsletterBlock[];
  onChange: (blocks: NewsletterBlock[]) => void;
  readOnly?: boolean;
  /** Problems to show on their blocks (the save was refused, or would be). */
  issues?: BlockIssue[];
}) {
  // The block the user last worked in: a new block goes below it (above the footer when it is the footer).
  const [cursor, setCursor] = useState<string | null>(null);
  const add = (type: NewsletterBlockType) => {
    const block = newBlock(type);
    const at = blocks.findIndex((b) => b.id === cursor);
    if (at < 0) return onChange(insertBlock(blocks, block));
    const below = blocks[at]!.type === 'footer' && type !== 'footer' ? at : at + 1;
    onChange(insertBlock(blocks, block, below));
    setCursor(block.id);
  };
  return (
    <div className="space-y-3" data-testid="block-editor">
      {blocks.length === 0 && (
        <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
          Your newsletter is empty. Add a heading, some text or an image to begin.
        </p>
      )}
      {blocks.map((block, index) => {
        const own = issues.filter((issue) => issue.blockId === block.id);
        return (
          <Card
            key={block.id}
            id={`block-${block.id}`}
            className={own.length > 0 ? 'gap-0 border-destructive py-0' : 'gap-0 py-0'}
            data-testid={`block-${block.type}`}
            data-invalid={own.length > 0 ? 'true' : undefined}
            onFocusCapture={() => setCursor(block.id)}
          >
            <div className="flex items-center justify-between border-b px-4 py-1.5">
              <span className="text-sm font-medium">
                {index + 1}. {BLOCK_TYPE_LABELS[block.type]}
              </span>
              {!readOnly && (
                <BlockActions
                  index={index}
                  count={blocks.length}
                  label={BLOCK_TYPE_LABELS[block.type].toLowerCase()}
                  onMove={(delta) => onChange(moveItem(blocks, index, delta))}
                  onRemove={() => onChange(blocks.filter((_, i) => i !== index))}
                />
              )}
            </div>
            <CardContent className="p-4">
              {own.length > 0 && (
                <ul
                  className="mb-3 space-y-1 text-sm text-destructive"
                  role="alert"
                  data-testid="block-issues"
                >
                  {own.map((issue) => (
                    <li key={`${issue.field}-${issue.message}`}>
                      <span className="font-medium">{issue.field}:</span> {issue.message}
                    </li>
                  ))}
                </ul>
              )}
              <fieldset disabled={readOnly} className="min-w-0">
                <BlockFields
                  block={block}
                  onChange={(next) => onChange(replaceAt(blocks, index, next))}
                  renderColumns={(columns) => (
                    <ColumnsFields
                      block={columns}
                      onChange={(next) => onChange(replaceAt(blocks, index, next))}
                    />
                  )}
                />
              </fieldset>
            </CardContent>
          </Card>
        );
      })}
      {!readOnly && (
        <AddBlockMenu
          types={BLOCK_TYPES}
          testId="add-block"
          disabled={blocks.length >= MAX_NEWSLETTER_BLOCKS}
          onAdd={add}
        />
      )}
    </div>
  );
}
