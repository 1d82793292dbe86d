/**
 * The Node doors' bundles (adapters/node/dist), built once before the unit tests: the command line, MCP and
 * package-entry tests run them as users do, and must not race each other rebuilding the same files.
 */
import { buildNode } from '../../tools/build-node.ts';

export default async function setup(): Promise<void> {
  await buildNode();
}
