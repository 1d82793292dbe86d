/**
 * `npm run docs:cli`: docs/cli.md's reference of every command and option, made again from the same option table and
 * commands as the parser and `--help` (adapters/node/commands/cli.ts); a unit test checks the file is current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMMANDS, OPTIONS } from '../adapters/node/commands/cli.ts';
import { usageOf, type AnyCommand, type OptionSpec } from '../adapters/node/commands/command-line.ts';

export const CLI_DOCS_START = '<!-- made from adapters/node/commands/cli.ts: npm run docs:cli -->';
export const CLI_DOCS_END = '<!-- end of what docs:cli makes -->';

const cell = (text: string): string => text.replaceAll('|', '\\|');

export function commandsMarkdown(table: Record<string, OptionSpec>, commands: readonly AnyCommand[]): string {
  const sections = commands.map((command) => {
    const rows = command.options.map((o) => {
      const name = typeof o === 'string' ? o : o.name;
      const spec = table[name];
      const help = typeof o === 'string' ? spec.help : (o.help ?? spec.help);
      return `| \`--${cell(name + (spec.value ? ` ${spec.value}` : ''))}\` | ${cell(help)}${typeof o !== 'string' && o.required ? ' (required)' : ''} |`;
    });
    const options = rows.length ? `\n\n| Option | What it does |\n|---|---|\n${rows.join('\n')}` : '';
    return `### \`${command.name}\`\n\n${command.summary}.\n\n\`\`\`\n${usageOf(table, command).replace(/^\s+/gm, '    ')}\n\`\`\`${options}`;
  });
  return `${CLI_DOCS_START}\n\n${sections.join('\n\n')}\n\n${CLI_DOCS_END}`;
}

export const CLI_DOC = resolve(import.meta.dirname, '../docs/cli.md');

/** docs/cli.md with its made part replaced by what the table says now. */
export function currentCliDoc(): string {
  const text = readFileSync(CLI_DOC, 'utf8');
  const start = text.indexOf(CLI_DOCS_START);
  const end = text.indexOf(CLI_DOCS_END);
  if (start < 0 || end < start) throw new Error(`${CLI_DOC}: no ${CLI_DOCS_START} … ${CLI_DOCS_END}`);
  return text.slice(0, start) + commandsMarkdown(OPTIONS, COMMANDS) + text.slice(end + CLI_DOCS_END.length);
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(CLI_DOC, currentCliDoc());
