import Placeholder from '@tiptap/extension-placeholder';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import {
  Bold,
  Code2,
  Heading2,
  Heading3,
  Italic,
  Link2,
  List,
  ListOrdered,
  Redo2,
  Strikethrough,
  Underline,
  Undo2,
  Unlink,
} from 'lucide-react';
import {
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useRef,
  useState,
} from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';
import { hasUnsupportedMarkup, normalizeEditorHtml, normalizeLinkHref } from './html';

export interface RichTextEditorHandle {
  /** Inserts plain text (a merge tag, a snippet) at the cursor, replacing any selection. */
  insertText: (text: string) => void;
  /** The selected text, or '' when nothing is selected. */
  getSelectedText: () => string;
  /** Replaces the selection (or inserts at the cursor) with plain text. */
  replaceSelection: (text: string) => void;
  focus: () => void;
}

export interface RichTextEditorProps {
  /** HTML in; the empty document is ''. */
  value: string;
  /** HTML out; '' when the document has no text. */
  onChange: (html: string) => void;
  placeholder?: string;
  readOnly?: boolean;
  /** Extra toolbar content on the right (merge-tag menu, AI actions). */
  toolbarExtra?: ReactNode;
  /** Called with the selected text whenever the selection changes (for "Improve / Shorten" menus). */
  onSelectionChange?: (text: string) => void;
  /** Accessible name of the editing area. */
  label: string;
  ref?: Ref<RichTextEditorHandle>;
  testId?: string;
  className?: string;
}

type Mode = 'visual' | 'source';

function ToolbarButton({
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon-sm"
      aria-label={label}
      title={label}
      aria-pressed={active}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className={cn(active && 'bg-accent text-accent-foreground')}
    >
      {children}
    </Button>
  );
}

function LinkButton({ editor, disabled }: { editor: Editor; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const [error, setError] = useState<string | null>(null);

  const apply = () => {
    const normalized = normalizeLinkHref(href);
    if (!normalized) {
      setError('Enter a web address like https://example.com, a mailto: address or a merge tag');
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link')) {
      // Nothing selected: insert the address itself as the link text.
      chain
        .insertContent({
          type: 'text',
          text: normalized,
          marks: [{ type: 'link', attrs: { href: normalized } }],
        })
        .run();
    } else {
      chain.setLink({ href: normalized }).run();
    }
    setOpen(false);
  };

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setHref((editor.getAttributes('link').href as string | undefined) ?? '');
          setError(null);
        }
      }}
    >
      <PopoverTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          size="icon-sm"
          aria-label="Link"
          title="Link"
          disabled={disabled}
          className={cn(editor.isActive('link') && 'bg-accent text-accent-foreground')}
          data-testid="rte-link"
        >
          <Link2 aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-80 space-y-2" align="start">
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <label className="text-sm font-medium" htmlFor="rte-link-href">
            Link address
          </label>
          <Input
            id="rte-link-href"
            value={href}
            onChange={(event) => {
              setHref(event.target.value);
              setError(null);
            }}
            placeholder="https://example.com"
            aria-invalid={Boolean(error)}
            autoFocus
            data-testid="rte-link-input"
          />
          {error && <p className="text-sm text-destructive">{error}</p>}
          <div className="flex justify-end gap-2">
            {editor.isActive('link') && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  editor.chain().focus().extendMarkRange('link').unsetLink().run();
                  setOpen(false);
                }}
              >
                <Unlink aria-hidden="true" />
                Remove link
              </Button>
            )}
            <Button type="submit" size="sm" data-testid="rte-link-apply">
              Apply
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}

/**
 * The email body editor: a TipTap document with a small formatting toolbar and an "HTML source" view.
 * Its value is HTML both ways. HTML the visual editor cannot hold (tables, images, inline styles — e.g.
 * from a template) opens in the source view, and switching such HTML to the visual view asks first.
 */
export function RichTextEditor({
  value,
  onChange,
  placeholder = 'Write your email…',
  readOnly = false,
  toolbarExtra,
  onSelectionChange,
  label,
  ref,
  testId = 'rich-text-editor',
  className,
}: RichTextEditorProps) {
  const [mode, setMode] = useState<Mode>(() => (hasUnsupportedMarkup(value) ? 'source' : 'visual'));
  const [confirmVisual, setConfirmVisual] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  // The last HTML this editor emitted or loaded, so outside changes (a template, AI text) are told apart
  // from the echo of our own onChange.
  const lastHtml = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const onSelectionRef = useRef(onSelectionChange);
  onSelectionRef.current = onSelectionChange;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        codeBlock: false,
        code: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          // Merge tags are valid link targets: {{ website }} is filled in per contact.
          isAllowedUri: (url, ctx) => /^\{\{.*\}\}/.test(url.trim()) || ctx.defaultValidate(url),
        },
      }),
      Placeholder.configure({ placeholder }),
    ],
    content: hasUnsupportedMarkup(value) ? '' : value,
    editable: !readOnly,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        'aria-label': label,
        role: 'textbox',
        'aria-multiline': 'true',
        class: 'min-h-64 px-4 py-3 outline-none',
        'data-testid': `${testId}-content`,
      },
    },
    onUpdate: ({ editor: current }) => {
      const html = normalizeEditorHtml(current.getHTML());
      lastHtml.current = html;
      onChangeRef.current(html);
    },
    onSelectionUpdate: ({ editor: current }) => {
      const { from, to } = current.state.selection;
      onSelectionRef.current?.(current.state.doc.textBetween(from, to, ' '));
    },
  });

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      strike: current.isActive('strike'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bullet: current.isActive('bulletList'),
      ordered: current.isActive('orderedList'),
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });

  useEffect(() => {
    // No update event: Tiptap's default would hand the loaded HTML back re-serialised as if the user had
    // edited it, and every saved step would open as "unsaved".
    editor.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  // An outside change of the value: load it, and show HTML the visual editor would damage as source.
  useEffect(() => {
    if (value === lastHtml.current) return;
    lastHtml.current = value;
    if (hasUnsupportedMarkup(value)) {
      setMode('source');
      return;
    }
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const insertInSource = useCallback(
    (text: string) => {
      const area = textareaRef.current;
      const start = area?.selectionStart ?? value.length;
      const end = area?.selectionEnd ?? value.length;
      const next = value.slice(0, start) + text + value.slice(end);
      lastHtml.current = next;
      onChangeRef.current(next);
      requestAnimationFrame(() => {
        area?.focus();
        area?.setSelectionRange(start + text.length, start + text.length);
      });
    },
    [value],
  );

  useImperativeHandle(
    ref,
    () => ({
      insertText: (text) => {
        if (mode === 'source') insertInSource(text);
        else editor.chain().focus().insertContent({ type: 'text', text }).run();
      },
      getSelectedText: () => {
        if (mode === 'source') {
          const area = textareaRef.current;
          return area ? value.slice(area.selectionStart, area.selectionEnd) : '';
        }
        const { from, to } = editor.state.selection;
        return editor.state.doc.textBetween(from, to, ' ');
      },
      replaceSelection: (text) => {
        if (mode === 'source') insertInSource(text);
        else editor.chain().focus().insertContent({ type: 'text', text }).run();
      },
      focus: () => {
        if (mode === 'source') textareaRef.current?.focus();
        else editor.commands.focus();
      },
    }),
    [editor, mode, insertInSource, value],
  );

  const toVisual = () => {
    lastHtml.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
    // Hand the simplified HTML back, so what is saved is what the visual editor shows.
    const html = normalizeEditorHtml(editor.getHTML());
    lastHtml.current = html;
    if (html !== value) onChangeRef.current(html);
    setMode('visual');
  };

  const switchMode = () => {
    if (mode === 'visual') {
      setMode('source');
      return;
    }
    if (hasUnsupportedMarkup(value)) setConfirmVisual(true);
    else toVisual();
  };

  const disabled = readOnly || mode === 'source';
  const run = (command: (editor: Editor) => void) => () => command(editor);

  return (
    <div
      className={cn(
        'overflow-hidden rounded-md border border-input bg-background shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50',
        className,
      )}
      data-testid={testId}
      data-mode={mode}
    >
      <div
        className="flex flex-wrap items-center gap-0.5 border-b bg-muted/40 px-1.5 py-1"
        role="toolbar"
        aria-label="Formatting"
      >
        <ToolbarButton
          label="Bold"
          active={state?.bold}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleBold().run())}
        >
          <Bold aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Italic"
          active={state?.italic}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleItalic().run())}
        >
          <Italic aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Underline"
          active={state?.underline}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleUnderline().run())}
        >
          <Underline aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Strikethrough"
          active={state?.strike}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleStrike().run())}
        >
          <Strikethrough aria-hidden="true" />
        </ToolbarButton>
        <span className="mx-1 h-5 w-px bg-border" aria-hidden="true" />
        <ToolbarButton
          label="Heading"
          active={state?.h2}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
        >
          <Heading2 aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Subheading"
          active={state?.h3}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleHeading({ level: 3 }).run())}
        >
          <Heading3 aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Bulleted list"
          active={state?.bullet}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleBulletList().run())}
        >
          <List aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Numbered list"
          active={state?.ordered}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleOrderedList().run())}
        >
          <ListOrdered aria-hidden="true" />
        </ToolbarButton>
        <LinkButton editor={editor} disabled={disabled} />
        <span className="mx-1 h-5 w-px bg-border" aria-hidden="true" />
        <ToolbarButton
          label="Undo"
          disabled={disabled || !state?.canUndo}
          onClick={run((e) => e.chain().focus().undo().run())}
        >
          <Undo2 aria-hidden="true" />
        </ToolbarButton>
        <ToolbarButton
          label="Redo"
          disabled={disabled || !state?.canRedo}
          onClick={run((e) => e.chain().focus().redo().run())}
        >
          <Redo2 aria-hidden="true" />
        </ToolbarButton>
        <div className="ml-auto flex flex-wrap items-center gap-1">
          {toolbarExtra}
          <Button
            type="button"
            variant={mode === 'source' ? 'secondary' : 'ghost'}
            size="sm"
            aria-pressed={mode === 'source'}
            onClick={switchMode}
            data-testid={`${testId}-source-toggle`}
          >
            <Code2 aria-hidden="true" />
            HTML source
          </Button>
        </div>
      </div>
      {mode === 'visual' ? (
        <EditorContent
          editor={editor}
          className={cn(
            'text-sm leading-relaxed',
            '[&_.tiptap]:min-h-64 [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:pl-3',
            '[&_h1]:my-2 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:my-2 [&_h2]:text-xl [&_h2]:font-semibold',
            '[&_h3]:my-2 [&_h3]:text-lg [&_h3]:font-semibold [&_p]:my-2 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6',
            '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6',
            '[&_.is-editor-empty:first-child]:before:pointer-events-none [&_.is-editor-empty:first-child]:before:float-left',
            '[&_.is-editor-empty:first-child]:before:h-0 [&_.is-editor-empty:first-child]:before:text-muted-foreground',
            '[&_.is-editor-empty:first-child]:before:content-[attr(data-placeholder)]',
          )}
        />
      ) : (
        <Textarea
          ref={textareaRef}
          value={value}
          readOnly={readOnly}
          onChange={(event) => {
            lastHtml.current = event.target.value;
            onChangeRef.current(event.target.value);
          }}
          onSelect={(event) => {
            const area = event.currentTarget;
            onSelectionRef.current?.(area.value.slice(area.selectionStart, area.selectionEnd));
          }}
          aria-label={`${label} (HTML source)`}
          spellCheck={false}
          className="min-h-64 resize-y rounded-none border-0 font-mono text-xs shadow-none focus-visible:ring-0"
          data-testid={`${testId}-source`}
        />
      )}
      <ConfirmDialog
        open={confirmVisual}
        onOpenChange={setConfirmVisual}
        title="Switch to the visual editor?"
        description="This HTML has layout the visual editor cannot keep (tables, images or inline styles). Switching simplifies it to text, headings, lists and links. Stay in the HTML source view to keep it as it is."
        confirmLabel="Simplify and switch"
        onConfirm={() => {
          setConfirmVisual(false);
          toVisual();
        }}
      />
    </div>
  );
}
