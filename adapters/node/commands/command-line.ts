/**
 * The command line's one parser: a table of every option (its kind, the value it takes as the help shows it, what it
 * does), and each command naming the options it takes. Parsing, the refusal of an option another command takes, and
 * the help text all read the table, so every command is read the same way and `--help` never drifts from it.
 */
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value as the help writes it (`<file>`, `csv|json|html`); none for a flag. */
  value?: string;
  help: string;
}

/** What parsing hands a command: the options given (strings and flags) and the arguments after its name. */
export interface Given {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  env: Record<string, string | undefined>;
}

export interface Command<T> {
  name: string;
  /** The arguments after the command's name, as the usage line writes them (`<price-list.xlsx>`). */
  args?: string;
  /** How many arguments it takes after its name. */
  positionals: number;
  /** What it does, for the help's usage section. */
  summary: string;
  /** Its options: a name of the table, or a name with this command's own words for it (and whether it must be given). */
  options: readonly (string | { name: string; help?: string; required?: boolean })[];
  /** The options as the command uses them, each value checked; a UsageError for a bad one. */
  read(given: Given): T;
  run(options: T): Promise<void>;
}

// A command's options and their values are checked by its own `read`; `any` keeps one list of differently typed commands.
// oxlint-disable-next-line no-explicit-any
export type AnyCommand = Command<any>;

const optionName = (option: string | { name: string }): string => (typeof option === 'string' ? option : option.name);

/** Which command, and its options read: `serve` when the first word is an option or missing; `help` for --help. */
export function parseCommandLine(
  table: Record<string, OptionSpec>,
  commands: readonly AnyCommand[],
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): { command: AnyCommand; options: unknown } | { help: AnyCommand | null } {
  const named = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : null;
  const command = named === null ? commands[0] : commands.find((c) => c.name === named);
  if (argv.includes('--help') || argv.includes('-h')) return { help: named === null ? null : (command ?? null) };
  if (!command) throw new UsageError(`unknown command "${named}"`);
  let parsed;
  try {
    parsed = parseArgs({
      args: named === null ? [...argv] : argv.slice(1),
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, { type: spec.type }])),
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const takes = new Set(command.options.map(optionName));
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === undefined || takes.has(name)) continue;
    const owners = commands.filter((c) => c.options.some((o) => optionName(o) === name)).map((c) => c.name);
    throw new UsageError(`--${name} is for ${owners.join(' and ')}`);
  }
  if (parsed.positionals.length > command.positionals) throw new UsageError(`unexpected argument "${parsed.positionals[command.positionals]}"`);
  return { command, options: command.read({ values: parsed.values, positionals: parsed.positionals, env }) };
}

const INDENT = 36;

/** Text wrapped to `width` columns after `indent` spaces (the first line's start given). */
function wrapped(text: string, indent: number, first: string, width = 116): string {
  const lines: string[] = [];
  let line = first.padEnd(indent);
  for (const word of text.split(/\s+/)) {
    if (line.trim().length && line.length + word.length + 1 > width && line.length > indent) {
      lines.push(line.trimEnd());
      line = ' '.repeat(indent);
    }
    line += (line.length > indent ? ' ' : '') + word;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** The usage line of a command: its arguments, then each option as `[--name value]` (no brackets when required). */
export function usageOf(table: Record<string, OptionSpec>, command: AnyCommand, width = 100): string {
  const options = command.options.map((o) => {
    const name = optionName(o);
    const value = table[name].value;
    const option = `--${name}${value ? ` ${value}` : ''}`;
    return typeof o !== 'string' && o.required ? option : `[${option}]`;
  });
  const head = ['offline-gov-api', command.name, command.args].filter(Boolean).join(' ');
  const lines = [head];
  for (const option of options) {
    if (lines[lines.length - 1].length + option.length + 1 > width) lines.push(' '.repeat(`offline-gov-api ${command.name}`.length));
    lines[lines.length - 1] += ` ${option}`;
  }
  return lines.join('\n  ');
}

/** The help: every command's usage and summary, then each command's options with its words or the table's. */
export function helpText(table: Record<string, OptionSpec>, commands: readonly AnyCommand[], only: AnyCommand | null = null, epilogue = ''): string {
  const shown = only ? [only] : commands;
  const parts = [`offline-gov-api: the Site Scanning and Ceiling Rates APIs, answered locally.\n\nUsage:`];
  for (const command of shown) parts.push(`  ${usageOf(table, command)}\n${wrapped(command.summary, INDENT, '')}`);
  if (!only) parts.push('  offline-gov-api --help   (or <command> --help)');
  for (const command of shown) {
    if (!command.options.length) continue;
    const lines = command.options.map((o) => {
      const name = optionName(o);
      const spec = table[name];
      const flag = `  --${name}${spec.value ? ` ${spec.value}` : ''}`;
      const help = typeof o === 'string' ? spec.help : (o.help ?? spec.help);
      // A long option name stands on a line of its own, its words under it.
      return flag.length >= INDENT - 1 ? `${flag}\n${wrapped(help, INDENT, '')}` : wrapped(help, INDENT, flag);
    });
    parts.push(`\n${command.name} options:\n${lines.join('\n')}`);
  }
  if (!only && epilogue) parts.push(`\n${epilogue}`);
  return parts.join('\n') + '\n';
}

/** A number option's value in its bounds, or a UsageError naming the option. */
export function numberOption(name: string, text: string | boolean | undefined, min: number, max: number): number | undefined {
  if (text === undefined || typeof text === 'boolean') return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

export function integerOption(name: string, text: string, min: number, max: number): number {
  const value = numberOption(name, text, min, max)!;
  if (!Number.isInteger(value)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

/** A string option's value (a flag given where a value was due is parseArgs' own error before this). */
export const stringOption = (value: string | boolean | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
