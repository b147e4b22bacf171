// The prompts idm asks, bound to the IO's stdin and stderr (stdout stays data). @inquirer/prompts is
// loaded only when a prompt is really shown. Ctrl-C at any prompt becomes an InterruptedError (130).
import { InterruptedError, UsageError } from '../cli/errors.js';
import type { IO } from './terminal.js';

export interface Choice<T> {
  value: T;
  name?: string;
  description?: string;
}

export interface Prompter {
  /** `prefill`: put the default in the line, ready to edit, instead of showing it as a hint. */
  input(message: string, options?: { default?: string; prefill?: boolean; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string>;
  select<T>(message: string, choices: ReadonlyArray<Choice<T> | { separator: string }>, options?: { default?: T; pageSize?: number }): Promise<T>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
}

function isCancel(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError';
}

export async function createPrompter(io: IO): Promise<Prompter> {
  if (!io.canPrompt) {
    throw new UsageError('Cannot prompt: not a terminal, or --no-input is set.', 'Pass the values as flags.');
  }
  const inquirer = await import('@inquirer/prompts');
  const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false } as const;
  const ask = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (isCancel(error)) throw new InterruptedError();
      throw error;
    }
  };
  return {
    input: (message, options = {}) =>
      ask(() => inquirer.input({ message, default: options.default, prefill: options.prefill ? 'editable' : undefined, validate: options.validate }, context)),
    password: (message, options = {}) => ask(() => inquirer.password({ message, mask: '*', validate: options.validate }, context)),
    select: <T>(message: string, choices: ReadonlyArray<Choice<T> | { separator: string }>, options: { default?: T; pageSize?: number } = {}) =>
      ask(() =>
        inquirer.select<T>(
          {
            message,
            choices: choices.map((choice) => ('separator' in choice ? new inquirer.Separator(choice.separator) : choice)),
            default: options.default,
            pageSize: options.pageSize ?? 12,
          },
          context,
        ),
      ),
    confirm: (message, options = {}) => ask(() => inquirer.confirm({ message, default: options.default ?? true }, context)),
  };
}
