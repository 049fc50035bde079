// Draws the review screen as text lines: the seed's rounded approval box, or a waiting note, plus a status line.
import { current, OPTIONS, unavailable, type Approval, type ReviewState } from './state.ts';
import { fit, inert, width, wrap } from './text.ts';

/** The terminal the screen is drawn for. */
export interface ScreenOptions {
  columns: number;
  rows: number;
  /** ANSI colours and bold; off for NO_COLOR and dumb terminals. */
  color: boolean;
  /** The sidecar's URL, for the status line. */
  url: string;
}

/** xterm-256 colours by risk, as the seed: high 160 (red), medium 208 (orange), low or unknown 220 (yellow). */
export const RISK_COLORS: Record<string, number> = { high: 160, medium: 208, low: 220 };

const LABEL = 9;
const MAX_BOX = 78;

/** The whole screen, one string per row, each at most `columns` wide and at most `rows` of them. */
export function renderScreen(state: ReviewState, options: ScreenOptions): string[] {
  const approval = current(state);
  const boxWidth = Math.max(24, Math.min(options.columns - 2, MAX_BOX));
  const tail = [
    statusLine(state, options),
    state.notice ? fit(inert(state.notice), Math.min(options.columns, boxWidth + 2)).trimEnd() : '',
  ];
  const body = approval
    ? dialog(state, approval, boxWidth, options.rows - tail.length, options.color)
    : waiting(boxWidth, options.color);
  return [...body, ...tail].slice(0, Math.max(1, options.rows));
}

/** Whether to colour: not with NO_COLOR set (no-color.org), nor on a dumb terminal, nor when not a TTY. */
export function colorEnabled(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  return isTty && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** The risk as the title shows it: `High risk`, `Medium risk`, `Low risk`, `Unknown risk`. */
export function riskLabel(risk: string | null | undefined): string {
  return risk && risk in RISK_COLORS ? `${risk[0]!.toUpperCase()}${risk.slice(1)} risk` : 'Unknown risk';
}

/** What the call acts on, with its label: the command for bash, the path for file tools, the URL for fetches. */
export function subjectOf(approval: Approval): { label: string; text: string } {
  const args =
    approval.args && typeof approval.args === 'object' && !Array.isArray(approval.args)
      ? (approval.args as Record<string, unknown>)
      : undefined;
  const command = args?.command ?? args?.cmd;
  if (typeof command === 'string') return { label: 'Command:', text: command };
  if (Array.isArray(command)) return { label: 'Command:', text: command.map(String).join(' ') };
  for (const key of ['file_path', 'path', 'filePath', 'notebook_path', 'absolute_path']) {
    if (typeof args?.[key] === 'string') return { label: 'Path:', text: args[key] as string };
  }
  if (typeof args?.url === 'string') return { label: 'URL:', text: args.url };
  return { label: 'Args:', text: JSON.stringify(approval.args) ?? 'null' };
}

function dialog(state: ReviewState, approval: Approval, boxWidth: number, rows: number, color: boolean): string[] {
  const inner = boxWidth - 5;
  const paint = painter(color);
  const riskColor = RISK_COLORS[approval.risk] ?? RISK_COLORS.low!;
  const border = (s: string) => paint(s, `38;5;${riskColor}`);
  const row = (content: string, styled = content) =>
    `${border('│')}  ${styled}${' '.repeat(Math.max(0, inner - width(content)))} ${border('│')}`;
  const text = (content: string, style?: string) => {
    const cut = fit(content, inner).trimEnd();
    return row(cut, style ? paint(cut, style) : cut);
  };

  const label = riskLabel(approval.risk);
  const title = `⚠  Tool approval request [${label}]`;
  const head = [text(title, undefined).replace(`[${label}]`, paint(`[${label}]`, `1;38;5;${riskColor}`)), row('')];

  const who = [
    approval.agent_id && `agent ${approval.agent_id}`,
    approval.session_id && `session ${approval.session_id}`,
    approval.cwd && `in ${approval.cwd}`,
  ]
    .filter(Boolean)
    .join(' · ');
  const options = optionLines(state, approval, inner, paint);
  const hint =
    state.input === 'feedback'
      ? [
          text(`Feedback: ${tailFit(inert(state.feedback), inner - 11)}█`),
          text('Enter send  Esc back to the options', '2'),
        ]
      : [text('↑↓ move  Enter/1-5 confirm  Esc deny', '2')];
  const fixed = 2 + 2 + 1 + (who ? 1 : 0) + 1 + options.length + 1 + hint.length + 1;
  const spare = Math.max(2, rows - fixed);
  const reason = labelled('Reason:', inert(approval.reason), inner, Math.max(1, Math.min(2, spare - 1)));
  const subject = subjectOf(approval);
  const subjectLines = labelled(subject.label, inert(subject.text), inner, Math.max(1, spare - reason.length));

  return [
    border(`╭${'─'.repeat(boxWidth - 2)}╮`),
    ...head,
    text(`${'Tool:'.padEnd(LABEL)}${inert(approval.tool)}`),
    ...subjectLines.map((l) => text(l)),
    ...reason.map((l) => text(l)),
    ...(who ? [text(`${'From:'.padEnd(LABEL)}${inert(who)}`)] : []),
    row(''),
    ...options.map((o) => row(o.plain, o.styled)),
    row(''),
    ...hint,
    border(`╰${'─'.repeat(boxWidth - 2)}╯`),
  ];
}

/** The five options; option 3 is followed by the rule it would save. */
function optionLines(
  state: ReviewState,
  approval: Approval,
  inner: number,
  paint: Paint,
): { plain: string; styled: string }[] {
  const lines: { plain: string; styled: string }[] = [];
  OPTIONS.forEach((name, index) => {
    const selected = index === state.cursor;
    const why = unavailable(approval, index);
    const plain = fit(`${selected ? '▶' : ' '} [${index + 1}] ${name}${why ? ` (${why})` : ''}`, inner).trimEnd();
    lines.push({ plain, styled: why ? paint(plain, '2') : selected ? paint(plain, '1') : plain });
    if (index === 2 && approval.suggested_pattern) {
      const rule = fit(`      rule: ${inert(approval.suggested_pattern)}`, inner).trimEnd();
      lines.push({ plain: rule, styled: paint(rule, '2') });
    }
  });
  return lines;
}

/** `Label:   text`, wrapped under the label, at most `max` lines; a cut says how much is hidden. */
function labelled(label: string, text: string, inner: number, max: number): string[] {
  const lines = wrap(text, inner - LABEL);
  if (lines.length > max) {
    const hidden = lines.slice(max - 1).join('').length;
    lines.splice(max - 1, lines.length, `… ${hidden} more characters (toolgate approvals show)`);
  }
  return lines.map((l, i) => `${(i === 0 ? label : '').padEnd(LABEL)}${l}`);
}

/** The end of `text` when it is too long, so the reviewer sees what they are typing. */
function tailFit(text: string, columns: number): string {
  if (width(text) <= columns) return text;
  const chars = [...text];
  let out = '';
  while (chars.length && width(out) < columns - 1) out = chars.pop()! + out;
  return `…${out}`;
}

function waiting(boxWidth: number, color: boolean): string[] {
  const inner = boxWidth - 5;
  const paint = painter(color);
  const row = (s: string, style?: string) => {
    const cut = fit(s, inner);
    return `│  ${style ? paint(cut, style) : cut} │`;
  };
  return [
    `╭${'─'.repeat(boxWidth - 2)}╮`,
    row('toolgate review — waiting for approval requests…'),
    row(''),
    row('Each request the agent waits on appears here, oldest first.', '2'),
    row('Ctrl+C quits.', '2'),
    `╰${'─'.repeat(boxWidth - 2)}╯`,
  ];
}

function statusLine(state: ReviewState, options: ScreenOptions): string {
  const c = state.connection;
  const parts = [
    c.state === 'connected' ? 'connected' : c.state === 'connecting' ? 'connecting…' : `reconnecting… (${c.reason})`,
  ];
  parts.push(state.queue.length === 0 ? 'no pending approvals' : `${state.queue.length} pending`);
  if (state.sidecarMode && state.sidecarMode !== 'default') parts.push(`mode: ${state.sidecarMode}`);
  if (state.sending) parts.push('sending…');
  parts.push(options.url);
  return fit(inert(parts.join(' · ')), Math.max(1, options.columns - 1)).trimEnd();
}

type Paint = (text: string, sgr: string) => string;

function painter(color: boolean): Paint {
  return color ? (text, sgr) => (text ? `\x1b[${sgr}m${text}\x1b[0m` : text) : (text) => text;
}
