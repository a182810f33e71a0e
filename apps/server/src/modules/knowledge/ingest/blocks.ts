import { normaliseCode, normaliseInline } from './normalise';
import type { Block, BlockKind } from './types';

/** Collects blocks in reading order: normalises their text, drops empty ones and tracks the heading path. */
export class BlockSink {
  readonly blocks: Block[] = [];
  private readonly headings: { level: number; text: string }[] = [];

  heading(level: number, rawText: string, page?: number): void {
    const text = normaliseInline(rawText);
    if (!text) return;
    while (this.headings.length > 0 && (this.headings.at(-1)?.level ?? 0) >= level) this.headings.pop();
    this.headings.push({ level, text });
    this.push({ kind: 'heading', text, level, headingPath: this.path(), page });
  }

  add(
    kind: Exclude<BlockKind, 'heading'>,
    rawText: string,
    options: { level?: number; page?: number } = {},
  ): void {
    const text = kind === 'code' ? normaliseCode(rawText) : normaliseInline(rawText);
    if (!text) return;
    this.push({ kind, text, level: options.level, headingPath: this.path(), page: options.page });
  }

  /** The text of the first level-1 heading, if any. */
  firstTitle(): string | null {
    return this.blocks.find((b) => b.kind === 'heading' && b.level === 1)?.text ?? null;
  }

  private path(): string[] {
    return this.headings.map((h) => h.text);
  }

  private push(block: Block): void {
    const clean: Block = { kind: block.kind, text: block.text, headingPath: block.headingPath };
    if (block.level !== undefined) clean.level = block.level;
    if (block.page !== undefined) clean.page = block.page;
    this.blocks.push(clean);
  }
}
