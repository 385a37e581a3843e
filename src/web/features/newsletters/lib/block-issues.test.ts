import { newsletterBlocksSchema } from '@shared/newsletters';
import { describe, expect, it } from 'vitest';
import {
  blockIssuesFromErrors,
  checkBlocks,
  describeIssue,
  insertBlock,
  withoutUnfilledLinks,
} from './block-issues';
import { newBlock } from './blocks';

describe('newsletter block issues', () => {
  it('does not treat the empty https:// of a new social link as an error', () => {
    const blocks = [newBlock('heading'), newBlock('social'), newBlock('footer')];
    expect(checkBlocks(blocks)).toEqual([]);
    // The server's schema agrees: the unfilled link is left out, the block kept.
    const parsed = newsletterBlocksSchema.parse(blocks);
    expect(parsed[1]).toMatchObject({ type: 'social', links: [] });
    expect(withoutUnfilledLinks(blocks)[1]).toMatchObject({ links: [] });
  });

  it('points at the block and the field of a real problem', () => {
    const button = { ...newBlock('button'), href: 'javascript:alert(1)' };
    const social = {
      ...newBlock('social'),
      links: [
        { network: 'website' as const, url: 'https://kano.example.com' },
        { network: 'x' as const, url: 'ftp://nope' },
      ],
    };
    const blocks = [newBlock('heading'), button, social, newBlock('footer')];
    const issues = checkBlocks(blocks);
    expect(issues.map((i) => [i.blockIndex, i.blockId, i.field])).toEqual([
      [1, button.id, 'Link'],
      [2, social.id, 'Link 2'],
    ]);
    expect(describeIssue(issues[0]!, blocks)).toBe(
      'Block 2 (Button): Link — Enter a link starting with https://, mailto: or tel:',
    );
  });

  it('reads the server’s dotted paths, inside columns too', () => {
    const columns = newBlock('columns');
    const blocks = [newBlock('heading'), columns];
    const issues = blockIssuesFromErrors(blocks, [
      { path: 'blocks.1.columns.1.0.href', message: 'Enter a link' },
      { path: 'subject', message: 'not a block' },
      { path: 'blocks.9.href', message: 'no such block' },
    ]);
    expect(issues).toEqual([
      { blockIndex: 1, blockId: columns.id, field: 'Right column, item 1: Link', message: 'Enter a link' },
    ]);
  });

  it('inserts a new block above the footer, or where asked', () => {
    const heading = newBlock('heading');
    const footer = newBlock('footer');
    const text = newBlock('text');
    expect(insertBlock([heading, footer], text).map((b) => b.type)).toEqual(['heading', 'text', 'footer']);
    expect(insertBlock([heading], text).map((b) => b.type)).toEqual(['heading', 'text']);
    expect(insertBlock([heading, footer], text, 0).map((b) => b.type)).toEqual(['text', 'heading', 'footer']);
    // A second footer goes at the end.
    expect(insertBlock([heading, footer], newBlock('footer')).map((b) => b.type)).toEqual([
      'heading',
      'footer',
      'footer',
    ]);
  });
});
