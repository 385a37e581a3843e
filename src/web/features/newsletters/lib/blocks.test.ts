import { BLOCK_TYPES, newsletterBlocksSchema } from '@shared/newsletters';
import { describe, expect, it } from 'vitest';
import { moveItem, newBlock, replaceAt, validBlocks } from './blocks';

describe('block editor document operations', () => {
  it('makes a new block of every type that the server accepts once its link is filled in', () => {
    const blocks = BLOCK_TYPES.map((type) => newBlock(type)).map((block) => {
      if (block.type === 'button') return { ...block, href: 'https://example.com' };
      if (block.type === 'social')
        return { ...block, links: [{ network: 'x' as const, url: 'https://x.com/kano' }] };
      return block;
    });
    expect(newsletterBlocksSchema.safeParse(blocks).success).toBe(true);
    expect(new Set(blocks.map((b) => b.id)).size).toBe(blocks.length);
  });

  it('moves blocks up and down and ignores moves past either end', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
    expect(replaceAt(['a', 'b'], 1, 'z')).toEqual(['a', 'z']);
  });

  it('takes blocks from a template only when they are valid', () => {
    expect(validBlocks([{ id: 'x', type: 'heading', text: 'Hi' }])).toHaveLength(1);
    expect(validBlocks([{ id: 'x', type: 'video' }])).toBeNull();
    expect(validBlocks(null)).toBeNull();
    expect(validBlocks([])).toBeNull();
  });
});
