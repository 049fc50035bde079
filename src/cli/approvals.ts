// toolgate approvals: the queue and its answers, from a terminal, through the running sidecar's API.
import type { components } from '../http/openapi-types.ts';
import { parseFlags, UsageError, type Command } from './command.ts';
import { callSidecar, NO_REVIEWER_TOKEN, RemoteError, reviewerToken, sidecarUrl } from './remote.ts';

type Approval = components['schemas']['Approval'];

const CHOICES = ['allow_once', 'allow_session', 'allow_always', 'deny', 'deny_with_feedback'];

const HELP = `Usage: toolgate approvals <list|show|resolve> [options]

  toolgate approvals list [--status pending|approved|denied|expired|cancelled] [--json]
  toolgate approvals show ID [--wait SECONDS]
  toolgate approvals resolve ID --choice CHOICE [--feedback TEXT] [--rule PATTERN] [--modified-args JSON]

Choices: ${CHOICES.join(', ')}.

Options:
  --url URL        the sidecar (default TOOLGATE_URL or http://127.0.0.1:7411)
  -h, --help       this help

The reviewer token comes from TOOLGATE_REVIEWER_TOKEN (set it in the reviewer's shell, never the agent's), or is
asked for at the terminal. <data-dir>/tokens.json is not read: see docs/security.md.`;

export const approvalsCommand: Command = {
  name: 'approvals',
  summary: 'list, show and answer pending approvals',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      url: { type: 'string' },
      'data-dir': { type: 'string' },
      status: { type: 'string' },
      json: { type: 'boolean' },
      wait: { type: 'string' },
      choice: { type: 'string' },
      feedback: { type: 'string' },
      rule: { type: 'string' },
      'modified-args': { type: 'string' },
    });
    const [sub, id] = positionals;
    if (values.help || !sub) {
      io.out(HELP);
      return values.help ? 0 : 2;
    }
    const base = sidecarUrl(values.url, io.env);
    const token = await reviewerToken(io);
    if (!token) {
      io.err(
        `toolgate approvals ${NO_REVIEWER_TOKEN}${values['data-dir'] ? ' (--data-dir is no longer used to find it)' : ''}`,
      );
      return 2;
    }
    try {
      switch (sub) {
        case 'list': {
          const status = values.status ?? 'pending';
          const { approvals } = await callSidecar<{ approvals: Approval[] }>(
            base,
            token,
            'GET',
            `/v1/approvals?status=${encodeURIComponent(status)}`,
          );
          if (values.json) for (const a of approvals) io.out(JSON.stringify(a));
          else if (approvals.length === 0) io.out(`no ${status} approvals`);
          else for (const a of approvals) io.out(summary(a));
          return 0;
        }
        case 'show': {
          if (!id) throw new UsageError('approvals show takes an approval id');
          const wait = values.wait ? `?wait=${encodeURIComponent(values.wait)}` : '';
          io.out(
            JSON.stringify(
              await callSidecar<Approval>(base, token, 'GET', `/v1/approvals/${encodeURIComponent(id)}${wait}`),
              null,
              2,
            ),
          );
          return 0;
        }
        case 'resolve': {
          if (!id) throw new UsageError('approvals resolve takes an approval id');
          if (!values.choice || !CHOICES.includes(values.choice))
            throw new UsageError(`--choice must be one of ${CHOICES.join(', ')}`);
          let modifiedArgs: unknown;
          if (values['modified-args'] !== undefined) {
            try {
              modifiedArgs = JSON.parse(values['modified-args']);
            } catch (error) {
              throw new UsageError(`--modified-args is not valid JSON: ${(error as Error).message}`);
            }
          }
          const body = {
            choice: values.choice,
            feedback: values.feedback,
            rule_pattern: values.rule,
            modified_args: modifiedArgs,
          };
          const approval = await callSidecar<Approval>(
            base,
            token,
            'POST',
            `/v1/approvals/${encodeURIComponent(id)}/resolve`,
            body,
          );
          io.out(
            `${approval.id} ${approval.status} (${approval.choice})${approval.rule_pattern ? ` rule ${approval.rule_pattern}` : ''}`,
          );
          return 0;
        }
        default:
          throw new UsageError(`unknown subcommand approvals ${sub} (list, show, resolve)`);
      }
    } catch (error) {
      if (error instanceof RemoteError) {
        io.err(`toolgate approvals: ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
};

function summary(a: Approval): string {
  const subject =
    a.args && typeof a.args === 'object'
      ? ((a.args as Record<string, unknown>).command ??
        (a.args as Record<string, unknown>).path ??
        (a.args as Record<string, unknown>).file_path ??
        JSON.stringify(a.args))
      : JSON.stringify(a.args);
  return `${a.id}  ${a.status.padEnd(9)} ${a.risk.padEnd(6)} ${a.tool}: ${String(subject).slice(0, 100)}  — ${a.reason}${a.agent_id ? `  [agent ${a.agent_id}]` : ''}`;
}
