// toolgate review: answer approvals in the terminal, in the seed's dialog, through a running sidecar's API.
import { parseFlags, UsageError, type Command } from '../command.ts';
import { NO_REVIEWER_TOKEN, reviewerToken, sidecarUrl } from '../remote.ts';
import { FeedAuthError } from './approval-feed.ts';
import { colorEnabled } from './render.ts';
import { runReviewSession } from './session.ts';
import { Terminal } from './terminal.ts';

const HELP = `Usage: toolgate review [options]

Shows each pending approval of a running sidecar as the approval dialog, oldest first,
and sends your answer at once to the agent waiting on it. Reconnects by itself when the
sidecar restarts.

Keys:
  ↑ ↓          move between the five options
  1-5          choose an option (5 asks for feedback)
  Enter        confirm the highlighted option
  Esc          deny (in feedback: back to the options)
  Ctrl+C/D     deny the request on screen and quit

Options:
  --url URL        the sidecar (default TOOLGATE_URL or http://127.0.0.1:7411)
  -h, --help       this help

The reviewer token comes from TOOLGATE_REVIEWER_TOKEN, or is asked for when the dialog starts.
<data-dir>/tokens.json is not read: see docs/security.md.

Colours follow the risk (high red, medium orange, low yellow); NO_COLOR=1 or TERM=dumb turns them off.`;

export const reviewCommand: Command = {
  name: 'review',
  summary: 'answer approvals in an interactive terminal dialog',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, { url: { type: 'string' }, 'data-dir': { type: 'string' } }, false);
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const { stdin, stdout } = process;
    if (!stdin.isTTY || !stdout.isTTY)
      throw new UsageError("review needs an interactive terminal; in scripts use 'toolgate approvals list|resolve'");
    const url = sidecarUrl(values.url, io.env);
    const given = await reviewerToken(io);
    if (!given) {
      io.err(`toolgate review ${NO_REVIEWER_TOKEN}`);
      return 2;
    }
    const token = () => given;
    const dumb = io.env.TERM === 'dumb';
    const terminal = new Terminal({ input: stdin, output: stdout }, { dumb });
    try {
      const outcome = await runReviewSession({ url, token, terminal, color: colorEnabled(io.env, true) });
      const quit = outcome.quitAnswer;
      if (quit)
        io.out(
          quit.error
            ? `toolgate review: could not deny ${quit.answer.approvalId} on the way out: ${quit.error}`
            : `toolgate review: denied ${quit.answer.approvalId} on the way out`,
        );
      return quit?.error ? 1 : 0;
    } catch (error) {
      if (error instanceof FeedAuthError) {
        io.err(`toolgate review: ${error.message}`);
        return 1;
      }
      throw error;
    } finally {
      terminal.restore();
    }
  },
};
