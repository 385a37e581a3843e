import {
  type ColumnBlock,
  NEWSLETTER_PALETTE,
  type NewsletterBlock,
  SOCIAL_NETWORK_LABELS,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from '@shared/newsletters';
import { AlignCenter, AlignLeft, AlignRight, ImageUp, Loader2, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { AiRewriteMenu } from '@/components/ai-writer';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { cn } from '@/lib/utils';
import { uploadNewsletterImage } from '../api/newsletters';

type Align = 'left' | 'center' | 'right';

function Field({
  label,
  children,
  className,
}: {
  label: string;
  children: (id: string) => ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      {children(id)}
    </div>
  );
}

export function AlignPicker({ value, onChange }: { value: Align; onChange: (value: Align) => void }) {
  const options: [Align, typeof AlignLeft, string][] = [
    ['left', AlignLeft, 'Align left'],
    ['center', AlignCenter, 'Centre'],
    ['right', AlignRight, 'Align right'],
  ];
  return (
    <div className="inline-flex rounded-md border" role="group" aria-label="Alignment">
      {options.map(([option, Icon, label]) => (
        <Button
          key={option}
          type="button"
          variant={value === option ? 'secondary' : 'ghost'}
          size="icon"
          className="size-8 rounded-none first:rounded-l-md last:rounded-r-md"
          aria-label={label}
          aria-pressed={value === option}
          onClick={() => onChange(option)}
        >
          <Icon className="size-4" />
        </Button>
      ))}
    </div>
  );
}

export function ColourPicker({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="space-y-1.5">
      <span className="text-xs text-muted-foreground">{label}</span>
      <div className="flex flex-wrap gap-1.5" role="radiogroup" aria-label={label}>
        {NEWSLETTER_PALETTE.map((colour) => (
          <button
            key={colour}
            type="button"
            role="radio"
            aria-checked={value.toLowerCase() === colour}
            aria-label={colour}
            title={colour}
            onClick={() => onChange(colour)}
            className={cn(
              'size-6 rounded-full border shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring',
              value.toLowerCase() === colour && 'ring-2 ring-primary ring-offset-2',
            )}
            style={{ backgroundColor: colour }}
          />
        ))}
      </div>
    </div>
  );
}

function ImageFields({
  block,
  onChange,
}: {
  block: Extract<NewsletterBlock, { type: 'image' }>;
  onChange: (block: NewsletterBlock) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const upload = async (file: File) => {
    setUploading(true);
    try {
      const url = await uploadNewsletterImage(file);
      onChange({ ...block, src: url, alt: block.alt || file.name.replace(/\.[a-z]+$/i, '') });
    } catch (error) {
      toast({
        title: 'Upload failed',
        description: getErrorMessage(error, 'The image could not be uploaded.'),
        variant: 'destructive',
      });
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="flex items-end gap-2 sm:col-span-2">
        <Field label="Image address" className="flex-1">
          {(id) => (
            <Input
              id={id}
              value={block.src}
              placeholder="https://…"
              onChange={(e) => onChange({ ...block, src: e.target.value })}
            />
          )}
        </Field>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="hidden"
          data-testid="image-upload-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <Button type="button" variant="outline" onClick={() => input.current?.click()} disabled={uploading}>
          {uploading ? <Loader2 className="size-4 animate-spin" /> : <ImageUp className="size-4" />}
          Upload
        </Button>
      </div>
      <Field label="Description (alt text)">
        {(id) => (
          <Input
            id={id}
            value={block.alt}
            placeholder="What the image shows"
            onChange={(e) => onChange({ ...block, alt: e.target.value })}
          />
        )}
      </Field>
      <Field label="Width (px, up to 600)">
        {(id) => (
          <Input
            id={id}
            type="number"
            min={20}
            max={600}
            value={block.width}
            onChange={(e) =>
              onChange({ ...block, width: Math.max(20, Math.min(600, Number(e.target.value) || 600)) })
            }
          />
        )}
      </Field>
      <Field label="Link (optional)">
        {(id) => (
          <Input
            id={id}
            value={block.href}
            placeholder="https://…"
            onChange={(e) => onChange({ ...block, href: e.target.value })}
          />
        )}
      </Field>
      <div className="flex items-end">
        <AlignPicker value={block.align} onChange={(align) => onChange({ ...block, align })} />
      </div>
    </div>
  );
}

/** The fields of one block (also used inside columns). */
export function BlockFields({
  block,
  onChange,
  renderColumns,
}: {
  block: NewsletterBlock;
  onChange: (block: NewsletterBlock) => void;
  renderColumns?: (block: Extract<NewsletterBlock, { type: 'columns' }>) => ReactNode;
}) {
  switch (block.type) {
    case 'heading':
      return (
        <div className="space-y-3">
          <Field label="Heading">
            {(id) => (
              <Input
                id={id}
                value={block.text}
                data-testid="block-heading-text"
                onChange={(e) => onChange({ ...block, text: e.target.value })}
              />
            )}
          </Field>
          <div className="flex flex-wrap items-end gap-4">
            <Field label="Size">
              {(id) => (
                <Select
                  value={String(block.level)}
                  onValueChange={(v) => onChange({ ...block, level: Number(v) as 1 | 2 | 3 })}
                >
                  <SelectTrigger id={id} className="w-32">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="1">Large</SelectItem>
                    <SelectItem value="2">Medium</SelectItem>
                    <SelectItem value="3">Small</SelectItem>
                  </SelectContent>
                </Select>
              )}
            </Field>
            <AlignPicker value={block.align} onChange={(align) => onChange({ ...block, align })} />
            <ColourPicker
              label="Colour"
              value={block.color}
              onChange={(color) => onChange({ ...block, color })}
            />
          </div>
        </div>
      );
    case 'text':
      return <TextBlockFields block={block} onChange={onChange} />;
    case 'image':
      return <ImageFields block={block} onChange={onChange} />;
    case 'button':
      return (
        <div className="space-y-3">
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Button text">
              {(id) => (
                <Input
                  id={id}
                  value={block.label}
                  data-testid="block-button-label"
                  onChange={(e) => onChange({ ...block, label: e.target.value })}
                />
              )}
            </Field>
            <Field label="Link">
              {(id) => (
                <Input
                  id={id}
                  value={block.href}
                  data-testid="block-button-href"
                  onChange={(e) => onChange({ ...block, href: e.target.value })}
                />
              )}
            </Field>
          </div>
          <div className="flex flex-wrap items-end gap-4">
            <AlignPicker value={block.align} onChange={(align) => onChange({ ...block, align })} />
            <ColourPicker
              label="Button colour"
              value={block.background}
              onChange={(background) => onChange({ ...block, background })}
            />
            <ColourPicker
              label="Text colour"
              value={block.color}
              onChange={(color) => onChange({ ...block, color })}
            />
          </div>
        </div>
      );
    case 'divider':
      return (
        <ColourPicker
          label="Line colour"
          value={block.color}
          onChange={(color) => onChange({ ...block, color })}
        />
      );
    case 'columns':
      return renderColumns ? renderColumns(block) : null;
    case 'social':
      return (
        <div className="space-y-2">
          {block.links.map((link, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows have no identity of their own but their order
            <div key={i} className="flex items-center gap-2">
              <Select
                value={link.network}
                onValueChange={(network) =>
                  onChange({
                    ...block,
                    links: block.links.map((l, j) =>
                      j === i ? { ...l, network: network as SocialNetwork } : l,
                    ),
                  })
                }
              >
                <SelectTrigger className="w-36" aria-label="Network">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {SOCIAL_NETWORKS.map((network) => (
                    <SelectItem key={network} value={network}>
                      {SOCIAL_NETWORK_LABELS[network]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Input
                aria-label={`${SOCIAL_NETWORK_LABELS[link.network]} link`}
                value={link.url}
                onChange={(e) =>
                  onChange({
                    ...block,
                    links: block.links.map((l, j) => (j === i ? { ...l, url: e.target.value } : l)),
                  })
                }
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label="Remove link"
                onClick={() => onChange({ ...block, links: block.links.filter((_, j) => j !== i) })}
              >
                <Trash2 className="size-4" />
              </Button>
            </div>
          ))}
          <div className="flex flex-wrap items-center gap-3">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={block.links.length >= SOCIAL_NETWORKS.length}
              onClick={() => {
                const used = new Set(block.links.map((l) => l.network));
                const network = SOCIAL_NETWORKS.find((n) => !used.has(n)) ?? 'website';
                onChange({ ...block, links: [...block.links, { network, url: 'https://' }] });
              }}
            >
              <Plus className="size-4" /> Add link
            </Button>
            <AlignPicker value={block.align} onChange={(align) => onChange({ ...block, align })} />
          </div>
        </div>
      );
    case 'footer':
      return (
        <div className="space-y-3">
          <Field label="Footer text">
            {(id) => (
              <Textarea
                id={id}
                rows={3}
                value={block.text}
                onChange={(e) => onChange({ ...block, text: e.target.value })}
              />
            )}
          </Field>
          <p className="text-xs text-muted-foreground">
            Every email also gets your postal address and an unsubscribe link automatically.
          </p>
          <AlignPicker value={block.align} onChange={(align) => onChange({ ...block, align })} />
        </div>
      );
  }
}

export type { ColumnBlock };

type TextBlock = Extract<NewsletterBlock, { type: 'text' }>;

/**
 * A text block: its text, alignment and colour, and AI rewriting of the selected words (or of the whole
 * block when nothing is selected). Plain text goes in and comes back, so the block's markup stays ours.
 */
function TextBlockFields({
  block,
  onChange,
}: {
  block: TextBlock;
  onChange: (block: NewsletterBlock) => void;
}) {
  const [range, setRange] = useState<{ start: number; end: number } | null>(null);
  const selected = range && range.end > range.start ? block.text.slice(range.start, range.end) : '';
  const target = selected || block.text;
  const replace = (text: string) => {
    if (selected && range) {
      onChange({ ...block, text: block.text.slice(0, range.start) + text + block.text.slice(range.end) });
      setRange({ start: range.start, end: range.start + text.length });
    } else {
      onChange({ ...block, text });
    }
  };
  return (
    <div className="space-y-3">
      <Field label="Text">
        {(id) => (
          <Textarea
            id={id}
            rows={5}
            value={block.text}
            data-testid="block-text-text"
            onChange={(e) => onChange({ ...block, text: e.target.value })}
            onSelect={(e) =>
              setRange({ start: e.currentTarget.selectionStart, end: e.currentTarget.selectionEnd })
            }
          />
        )}
      </Field>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">
          A blank line starts a new paragraph. **bold**, *italic*, [link text](https://…) and merge tags such
          as <code>{'{{ firstName | default: "there" }}'}</code> work here.
        </p>
        <AiRewriteMenu text={target} onReplace={replace} />
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <AlignPicker value={block.align} onChange={(align) => onChange({ ...block, align })} />
        <ColourPicker
          label="Colour"
          value={block.color}
          onChange={(color) => onChange({ ...block, color })}
        />
      </div>
    </div>
  );
}
