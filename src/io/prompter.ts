// The prompts idm asks, bound to the IO's stdin and stderr (stdout stays data). @inquirer/prompts is
// loaded only when a prompt is really shown. Ctrl-C or Escape (or SIGTERM, SIGHUP) at any prompt
// becomes the IO's stop reason (InterruptedError: 130, 143, 129); the prompt restores the terminal
// itself, and is erased but for its question. Ctrl-Z suspends the run, and the question is asked
// again once it is continued.
// Prompts follow the IO's colour decision (--no-color, NO_COLOR), and every text shown in them is
// made safe (it may name a server's connection or attribute).
import { InterruptedError, UsageError } from '../core/errors.js';
import { hasUnsafeCharacters } from '../core/text.js';
import type { IO } from './io.js';
import { safeText } from './safe.js';

export interface Choice<T> {
  value: T;
  name?: string;
  /** The answer shown once chosen (default: the name): a long name would wrap that line. */
  short?: string;
  description?: string;
  /** Shown but not selectable; a string says why. */
  disabled?: boolean | string;
  checked?: boolean;
}

export type ChoiceOrSeparator<T> = Choice<T> | { separator: string };

export interface Prompter {
  /** `prefill`: put the default in the line, ready to edit, instead of showing it as a hint. */
  /** `validate` may read a file (a path typed), so it may be async. */
  input(message: string, options?: { default?: string; prefill?: boolean; validate?: (value: string) => true | string | Promise<true | string> }): Promise<string>;
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string>;
  select<T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>, options?: { default?: T; pageSize?: number }): Promise<T>;
  /** `answer`: what is shown after the question once chosen (default: the choices' short names, joined), made safe here. */
  checkbox<T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>, options?: { pageSize?: number; required?: boolean; answer?: (values: T[]) => string }): Promise<T[]>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  /**
   * The columns a line of a select's list takes besides a choice's name and why it cannot be chosen
   * (`disabled`), when `count` choices can be: what a caller cutting names to fit the terminal leaves.
   */
  listMargin?(count: number, disabled: boolean): number;
}

function isCancel(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError';
}

const plain = (text: string) => text;
/** The reason a prompt is ended when the process is suspended (Ctrl-Z): asked again once continued. */
const SUSPENDED = Symbol('suspended');
/** The keys' help of @inquirer's lists (idm adds `esc cancel`), and the longest refusal they show under the list. */
const SELECT_HELP = '↑↓ navigate • ⏎ select';
const CHECKBOX_HELP = '↑↓ navigate • space select • a all • i invert • ⏎ submit';
const LONGEST_ERROR = '> This option is disabled and cannot be selected.';
/** Where a terminal suspends a process with SIGTSTP (not Windows). */
const SUSPENDS = process.platform !== 'win32';
/** Every style of the prompts idm uses, without colour (@inquirer's defaults use node:util styleText). */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['-', '\\', '|', '/'] },
  icon: { cursor: '❯', checked: '◉', unchecked: '◯', disabledChecked: '◎', disabledUnchecked: '-' },
  style: {
    answer: plain,
    message: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: plain,
    highlight: plain,
    key: (text: string) => `<${text}>`,
    disabled: plain,
    description: plain,
    keysHelpTip: (keys: Array<[string, string]>) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
    confirmDefault: (text: string) => text.charAt(0).toUpperCase() + text.slice(1),
    renderSelectedChoices: (choices: Array<{ short: string }>) => choices.map((choice) => choice.short).join(', '),
  },
};

export async function createPrompter(io: IO): Promise<Prompter> {
  if (!io.canPrompt) {
    throw new UsageError(`Cannot prompt (${io.cannotAsk}).`, 'Pass the values as flags.');
  }
  // A check that ends after the run was stopped (Ctrl-C while it read a FIFO typed at the prompt) is
  // not handed back: the prompt, closed by then, would draw its answer again and read the terminal
  // once more, holding the process. A promise that never settles holds nothing.
  const checked = <V>(validate: ((value: V) => true | string | Promise<true | string>) | undefined) =>
    validate &&
    (async (value: V) => {
      let verdict: true | string;
      try {
        verdict = await validate(value);
      } catch (error) {
        verdict = (error as Error).message; // a check that throws refuses with its words
      }
      // A refusal may quote what was typed or pasted: made safe, as every text on the terminal.
      return io.signal.aborted ? new Promise<never>(() => {}) : verdict === true ? true : safeText(verdict);
    });
  // TERM=dumb: no cursor control, so no prompt that redraws itself; plain questions, a line each.
  if (io.env.TERM === 'dumb') return (await import('./plain-prompter.js')).createPlainPrompter(io, checked);
  const inquirer = await import('@inquirer/prompts');
  const palette = io.palette('stderr');
  type Context = { input: IO['stdin']; output: IO['stderr']; signal: AbortSignal; readonly clearPromptOnDone: boolean };
  type Theme = { prefix?: object; style: Record<string, unknown> };
  /**
   * Runs one prompt. Answered, it leaves its question and answer; cancelled (Ctrl-C, a signal), it
   * erases all it drew (a list's choices and keys' help stayed under the question) and leaves one
   * line: the question, and that it was cancelled. The prompt renders its message with the status
   * it is in ('done' once answered), which tells the two apart when it clears its drawing.
   */
  const askOnce = async <T>(run: (context: Context, theme: { theme: Theme }) => Promise<T>): Promise<{ value: T } | typeof SUSPENDED> => {
    io.throwIfStopped();
    let status: string | undefined;
    let question = '';
    const bold = io.colorStderr ? palette.bold : plain;
    const style = {
      ...(io.colorStderr ? {} : PLAIN_THEME.style),
      message: (text: string, now: string) => {
        status = now;
        question = text;
        return bold(text);
      },
      // The lists' help says how to leave them, as Escape does nothing at @inquirer's prompts.
      keysHelpTip: (keys: Array<[string, string]>) =>
        [...keys, ['esc', 'cancel'] as [string, string]].map(([key, action]) => `${palette.bold(key)} ${palette.dim(action)}`).join(palette.dim(' • ')),
    };
    // Escape cancels a prompt as Ctrl-C does (as at fzf, clack's prompts, a dialog's Cancel): the
    // run stops with SIGINT's reason (exit 130). Readline tells Escape alone from the
    // start of a key's sequence (an arrow, Alt-x) by waiting a moment for the rest.
    const prompt = new AbortController();
    const onStop = () => prompt.abort(io.signal.reason);
    const onKey = (_text: unknown, key?: { name?: string }) => {
      if (key?.name === 'escape') prompt.abort(new InterruptedError('SIGINT'));
    };
    io.signal.addEventListener('abort', onStop, { once: true });
    // Ctrl-Z (readline sends the process SIGTSTP) or a SIGTSTP from elsewhere: the prompt erases its
    // drawing and lets go of the terminal before the process stops, and is asked again once it is
    // continued (fg). Stopped under a prompt, readline paused stdin as it was continued: nothing
    // then kept the process alive, and it ended as if Ctrl-C had been typed (exit 130).
    let suspended = false;
    const onSuspend = () => {
      suspended = true;
      prompt.abort(SUSPENDED);
    };
    if (SUSPENDS) process.on('SIGTSTP', onSuspend);
    const context: Context = {
      input: io.stdin,
      output: io.stderr,
      signal: prompt.signal,
      get clearPromptOnDone() {
        return status !== 'done';
      },
    };
    try {
      // Listened to once the prompt has made stdin emit keys (its readline does, as it starts).
      const answer = run(context, { theme: io.colorStderr ? { style } : { ...PLAIN_THEME, style } });
      io.stdin.on('keypress', onKey);
      return { value: await answer };
    } catch (error) {
      if (!isCancel(error)) throw error;
      if (suspended && !io.signal.aborted) return SUSPENDED;
      if (status !== undefined) io.err(`${palette.red('✖')} ${bold(question)} ${palette.dim('(cancelled)')}\n`);
      // Aborted by a signal: that signal's reason; Ctrl-C (or Escape) typed at the prompt: SIGINT,
      // which stops the run as the signal would, so that what still waits (a prompt's check reading
      // a FIFO or a terminal) ends too.
      if (!io.signal.aborted) io.stop(new InterruptedError('SIGINT'));
      throw io.signal.reason;
    } finally {
      io.signal.removeEventListener('abort', onStop);
      io.stdin.off('keypress', onKey);
      if (SUSPENDS) process.off('SIGTSTP', onSuspend);
      // No longer caught: SIGTSTP stops the process, as the terminal asked (after an answer given
      // at the same moment too).
      if (suspended) process.kill(process.pid, 'SIGTSTP');
    }
  };
  const ask = async <T>(run: (context: Context, theme: { theme: Theme }) => Promise<T>): Promise<T> => {
    for (;;) {
      const answer = await askOnce(run);
      if (answer !== SUSPENDED) return answer.value;
    }
  };
  // A list taller than the terminal scrolls its question away, and each redraw then leaves a copy
  // behind: the page is cut to the rows left by the question, a description, an error, the keys' help.
  // Each of them takes as many rows as it wraps to in a narrow terminal (the checkbox's help is four
  // rows at 20 columns): `around` is their texts, the question's line first.
  const page = (pageSize: number, around: readonly string[]) => {
    const { rows, columns } = io.stderr as { rows?: unknown; columns?: unknown };
    if (typeof rows !== 'number' || rows <= 0) return pageSize;
    const width = typeof columns === 'number' && columns > 0 ? columns : 80;
    const taken = around.reduce((sum, text) => sum + Math.max(1, Math.ceil([...text].length / width)), 0);
    // And the blank line above the help, and a row to spare (the prompt adds one when its line ends at the edge).
    return Math.max(3, Math.min(pageSize, rows - taken - 2));
  };
  // Read at each redraw (the prompt reads its config then), not once: a terminal made smaller while
  // the list shows gets a page that fits from the next key on, rather than a copy left per key.
  // `help`: the prompt's keys' help line, as it shows it.
  const paged = <C extends { message: string; choices: ReadonlyArray<{ description?: string } | object> }>(config: C, pageSize: number | undefined, help: string): C & { pageSize: number } => {
    const description = config.choices.reduce((longest: string, choice) => {
      const text = (choice as { description?: unknown }).description;
      return typeof text === 'string' && text.length > longest.length ? text : longest;
    }, '');
    const around = [`? ${config.message}`, description, LONGEST_ERROR, `${help} • esc cancel`];
    return Object.defineProperty(config, 'pageSize', { get: () => page(pageSize ?? 12, around), enumerable: true }) as C & { pageSize: number };
  };
  const choicesOf = <T>(choices: ReadonlyArray<ChoiceOrSeparator<T>>) =>
    choices.map((choice) =>
      'separator' in choice
        ? new inquirer.Separator(safeText(choice.separator))
        : {
            ...choice,
            name: choice.name === undefined ? undefined : safeText(choice.name),
            short: choice.short === undefined ? undefined : safeText(choice.short),
            description: choice.description === undefined ? undefined : safeText(choice.description),
            disabled: typeof choice.disabled === 'string' ? safeText(choice.disabled) : choice.disabled,
          },
    );
  return {
    input: (message, options = {}) => {
      // The prompt writes its default as it is (in the hint, in the line with Tab or prefill, as the
      // answer): one read from a file (a hand-written config.json's client id) may hold escapes that
      // drive the terminal. No value idm asks for may hold such characters, so none is offered.
      const offered = options.default === undefined || hasUnsafeCharacters(options.default) ? undefined : options.default;
      return ask((context, theme) =>
        inquirer.input(
          { message: safeText(message), default: offered, prefill: options.prefill && offered !== undefined ? 'editable' : undefined, validate: checked(options.validate), ...theme },
          context,
        ),
      );
    },
    password: (message, options = {}) => ask((context, theme) => inquirer.password({ message: safeText(message), mask: '*', toggleMask: false, validate: checked(options.validate), ...theme }, context)),
    select: <T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>, options: { default?: T; pageSize?: number } = {}) =>
      ask((context, theme) => inquirer.select<T>(paged({ message: safeText(message), choices: choicesOf(choices), default: options.default, ...theme }, options.pageSize, SELECT_HELP), context)),
    checkbox: <T>(message: string, choices: ReadonlyArray<ChoiceOrSeparator<T>>, options: { pageSize?: number; required?: boolean; answer?: (values: T[]) => string } = {}) => {
      const { answer } = options;
      return ask((context, theme) => {
        // Merged by the prompt over its own theme: only the answer's text changes.
        const answered = answer && { theme: { ...theme.theme, style: { ...theme.theme.style, renderSelectedChoices: (selected: Array<{ value: T }>) => safeText(answer(selected.map((choice) => choice.value))) } } };
        return inquirer.checkbox<T>(paged({ message: safeText(message), choices: choicesOf(choices), required: options.required, ...theme, ...answered }, options.pageSize, CHECKBOX_HELP), context);
      });
    },
    confirm: (message, options = {}) => ask((context, theme) => inquirer.confirm({ message: safeText(message), default: options.default ?? true, ...theme }, context)),
    // The cursor (or `- `), and the space before why a choice cannot be chosen.
    listMargin: (_count, disabled) => (disabled ? 3 : 2),
  };
}
