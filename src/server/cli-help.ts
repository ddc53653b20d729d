/**
 * `--help` of every command (issue 32.10): each command module declares its help as data (its
 * words, a usage line, every option with its meaning and default), and `cli.ts` keeps the one list
 * of them. Adding a command's help is adding a `CommandHelp` to that list; the test runs `--help`
 * for every entry.
 */
export interface OptionHelp {
  /** `--timeout`, `-q`: as typed. */
  flag: string;
  /** The value's placeholder (`SECONDS`), absent for a switch. */
  value?: string;
  /** What it does, one sentence. */
  help: string;
  /** The default, as the user would type it; absent when there is none (a switch is off by default). */
  default?: string;
}

export interface CommandHelp {
  /** The words that name it: `['workspace', 'from-describe']`. */
  words: string[];
  /** What follows the words: positionals and required options. */
  usage: string;
  summary: string;
  options: OptionHelp[];
}

/** One command's help page: usage, what it does, each option with its default. */
export function formatHelp(command: CommandHelp): string {
  const name = ['jql-console', ...command.words].join(' ');
  const lines = [`Usage: ${name}${command.usage ? ` ${command.usage}` : ''}`, '', command.summary];
  const options = [...command.options, { flag: '--help', help: 'Prints this help.' }];
  const heads = options.map((o) => `  ${o.flag}${o.value ? ` ${o.value}` : ''}`);
  const width = Math.max(...heads.map((h) => h.length)) + 2;
  lines.push('', 'Options:');
  options.forEach((option, i) => {
    const def = 'default' in option && option.default !== undefined ? ` (default: ${option.default})` : '';
    lines.push(`${(heads[i] as string).padEnd(width)}${option.help}${def}`);
  });
  return lines.join('\n');
}

/** The command the arguments name (longest words first), or null. */
export function findCommand(commands: readonly CommandHelp[], argv: readonly string[]): CommandHelp | null {
  const sorted = [...commands].sort((a, b) => b.words.length - a.words.length);
  return sorted.find((c) => c.words.every((word, i) => argv[i] === word)) ?? null;
}

/** `--help` or `-h` anywhere before a `--`. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The overview: every command's usage line and summary. */
export function formatOverview(commands: readonly CommandHelp[], version: string): string {
  const lines = [`jql-console ${version}`, '', 'Usage:'];
  for (const command of commands) lines.push(`  jql-console ${[...command.words, command.usage].filter(Boolean).join(' ')}`, `      ${command.summary}`);
  lines.push('', 'Every command answers --help with its options and their defaults; --version prints the version.');
  return lines.join('\n');
}
