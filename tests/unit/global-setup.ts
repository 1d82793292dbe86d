/**
 * Made once before the unit tests: the Node doors' bundles (adapters/node/dist: the command line, MCP and
 * package-entry tests run them as users do, and must not race each other rebuilding the same files), and the real
 * weeks the weeks' tests share (tests/helpers/weeks-fixture.ts, kept under .tmp/ while its inputs stay the same).
 */
import type { TestProject } from 'vitest/node';
import { buildNode } from '../../tools/build-node.ts';
import { ensureWeeksFixture } from '../helpers/weeks-fixture.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The weeks fixture's directory (tests/helpers/weeks-fixture.ts). */
    weeksFixture: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  await buildNode();
  project.provide('weeksFixture', ensureWeeksFixture());
}
