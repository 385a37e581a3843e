import { Braces } from 'lucide-react';
import { Fragment } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { MergeTag } from '../../lib/merge-tags';

/** "Insert merge tag": contact, sender and custom fields; the chosen tag goes in at the cursor. */
export function MergeTagMenu({
  tags,
  onInsert,
  disabled,
  testId,
  label = 'Merge tag',
}: {
  tags: readonly MergeTag[];
  onInsert: (tag: string) => void;
  disabled?: boolean;
  testId: string;
  label?: string;
}) {
  const groups = [...new Set(tags.map((t) => t.group))];
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={disabled}
          onMouseDown={(event) => event.preventDefault()}
          data-testid={testId}
        >
          <Braces aria-hidden="true" />
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="max-h-80 w-72 overflow-y-auto"
        onCloseAutoFocus={(e) => e.preventDefault()}
      >
        {groups.map((group, index) => (
          <Fragment key={group}>
            {index > 0 && <DropdownMenuSeparator />}
            <DropdownMenuLabel>{group}</DropdownMenuLabel>
            {tags
              .filter((t) => t.group === group)
              .map((t) => (
                <DropdownMenuItem
                  key={t.tag}
                  onSelect={() => onInsert(t.tag)}
                  className="flex flex-col items-start gap-0"
                  data-testid={`${testId}-item`}
                  data-tag={t.tag}
                >
                  <span>{t.label}</span>
                  <code className="text-xs text-muted-foreground">{t.tag}</code>
                </DropdownMenuItem>
              ))}
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
