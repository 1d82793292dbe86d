#!/usr/bin/env node
/** The executable's entry: run the command line, and turn a usage or data error into a message and exit 1. */
import { main, UsageError } from './cli.ts';

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`offline-gov-api: ${message}`);
  if (error instanceof UsageError) console.error('Run `offline-gov-api --help` for the options.');
  process.exit(1);
}
