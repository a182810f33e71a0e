import { describe, expect, it } from 'vitest';
import {
  CreatePromptBodySchema,
  DEFAULT_PROMPT_TEMPLATE,
  diffLines,
  PromptPreviewBodySchema,
  promptVariables,
  renderPrompt,
  UpdatePromptBodySchema,
} from './prompts';

describe('promptVariables', () => {
  it('finds known variables with optional spaces, in order of first use, once each', () => {
    expect(promptVariables('{{ question }} and {{context}} then {{question}}')).toEqual({
      variables: ['question', 'context'],
      unknown: [],
      malformed: [],
    });
  });

  it('reports unknown names and malformed braces as written', () => {
    const scan = promptVariables('Hi {{foo}} {{ bar }} {{question {{}} {{ 1x }}');
    expect(scan.unknown).toEqual(['foo', 'bar']);
    expect(scan.malformed).toEqual(['{{question', '{{}}', '{{ 1x }}']);
    expect(promptVariables('ends with {{').malformed).toEqual(['{{']);
  });

  it('the default template uses only known variables and asks for citations in the chosen language', () => {
    const scan = promptVariables(DEFAULT_PROMPT_TEMPLATE);
    expect(scan.unknown).toEqual([]);
    expect(scan.malformed).toEqual([]);
    expect(scan.variables).toEqual(['bot_name', 'language', 'context', 'history', 'question']);
    expect(DEFAULT_PROMPT_TEMPLATE).toContain('[n]');
    expect(DEFAULT_PROMPT_TEMPLATE).toContain("don't know");
  });
});

describe('renderPrompt', () => {
  it('replaces known variables, empties missing ones and leaves unknown ones as written', () => {
    expect(renderPrompt('Q: {{ question }} / {{language}} / {{x}}', { question: 'Why?' })).toBe(
      'Q: Why? /  / {{x}}',
    );
  });

  it('does not expand placeholders that come from a value', () => {
    expect(renderPrompt('{{question}} {{context}}', { question: '{{context}}', context: 'C' })).toBe(
      '{{context}} C',
    );
  });
});

describe('diffLines', () => {
  it('aligns same, changed, removed and added lines', () => {
    expect(diffLines('a\nb\nc\nd', 'a\nB\nc\ne\nf')).toEqual([
      { left: 'a', right: 'a', kind: 'same' },
      { left: 'b', right: 'B', kind: 'changed' },
      { left: 'c', right: 'c', kind: 'same' },
      { left: 'd', right: 'e', kind: 'changed' },
      { left: null, right: 'f', kind: 'added' },
    ]);
  });

  it('keeps a pure removal and a pure insertion apart', () => {
    expect(diffLines('a\nb\nc', 'a\nc\nd')).toEqual([
      { left: 'a', right: 'a', kind: 'same' },
      { left: 'b', right: null, kind: 'removed' },
      { left: 'c', right: 'c', kind: 'same' },
      { left: null, right: 'd', kind: 'added' },
    ]);
    expect(diffLines('same', 'same')).toEqual([{ left: 'same', right: 'same', kind: 'same' }]);
  });
});

describe('prompt bodies', () => {
  it('refuses an unknown variable naming it and the allowed ones', () => {
    const result = CreatePromptBodySchema.safeParse({ name: 'P', template: 'Hello {{foo}}' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Unknown variable {{foo}}; use question, context, history, language or bot_name.',
    ]);
  });

  it('refuses malformed placeholders, empty and oversized fields, unknown keys and NUL', () => {
    expect(CreatePromptBodySchema.safeParse({ name: 'P', template: '{{question' }).success).toBe(false);
    expect(CreatePromptBodySchema.safeParse({ name: ' ', template: 'x' }).success).toBe(false);
    expect(CreatePromptBodySchema.safeParse({ name: 'x'.repeat(121), template: 'x' }).success).toBe(false);
    expect(CreatePromptBodySchema.safeParse({ name: 'P', template: 'x'.repeat(20_001) }).success).toBe(false);
    expect(CreatePromptBodySchema.safeParse({ name: 'P', template: '   ' }).success).toBe(false);
    expect(CreatePromptBodySchema.safeParse({ name: 'P', template: 'a\u0000' }).success).toBe(false);
    expect(CreatePromptBodySchema.safeParse({ name: 'P', template: 'x', extra: 1 }).success).toBe(false);
    expect(UpdatePromptBodySchema.safeParse({ template: '{{ bot }}' }).success).toBe(false);
    expect(PromptPreviewBodySchema.safeParse({ template: 'x', values: { nope: 'y' } }).success).toBe(false);
  });

  it('accepts a valid body, trimming the name', () => {
    expect(
      CreatePromptBodySchema.parse({ name: ' Support ', template: '{{ question }}', description: 'd' }),
    ).toEqual({ name: 'Support', template: '{{ question }}', description: 'd' });
  });
});
