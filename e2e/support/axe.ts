// axe-core run inside a page or frame (evaluated there, so the page's CSP does not apply).
import { readFileSync } from 'node:fs';
import type { Frame, Page } from '@playwright/test';
import { REPO_ROOT } from './server';

const AXE = readFileSync(`${REPO_ROOT}node_modules/axe-core/axe.min.js`, 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { html: string; failureSummary?: string }[];
}

/** The serious and critical axe findings of a page or frame, one line each: rule, elements and why. */
export async function seriousViolations(target: Frame | Page): Promise<string[]> {
  await target.evaluate(AXE);
  const violations = await target.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }
    ).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes
          .map(
            (node) =>
              `${node.html.slice(0, 160)} [${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}]`,
          )
          .join(' | ')}`,
    );
}
