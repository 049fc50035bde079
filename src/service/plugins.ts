// Extension hooks (the seed's ToolHook onion): ES modules whose beforeExecute runs after the built-in stages and afterExecute on results.
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decide as decideCall } from '../engine/decide.ts';
import { effectiveMode } from '../engine/modes.ts';
import { RISK_ORDER, type Decision, type Risk } from '../engine/types.ts';
import type { DecideInput, StageContext, StageVerdict } from './decider.ts';
import type { Toolgate } from './toolgate.ts';

/** A tool call as a plugin sees it. */
export interface PluginCall {
  /** The tool name the agent used, and toolgate's canonical name for it. */
  tool: string;
  canonicalTool: string;
  args: unknown;
  agentId?: string;
  sessionId?: string;
  cwd?: string;
  toolCallId?: string;
}

/** What a plugin knows about the decision so far. */
export interface PluginContext {
  decisionId: string;
  /** The decision before this plugin: the built-in pipeline's, as changed by earlier plugins. */
  decision: Decision;
  reason: string;
  /** True once a rule or an earlier plugin allowed the call explicitly: an ask from this plugin is then skipped. */
  explicitlyAllowed: boolean;
}

/** A plugin's verdict; undefined (or nothing) means no opinion. */
export interface PluginDecision {
  action: Decision;
  reason?: string;
  risk?: Risk;
  /** Arguments to run instead; applied for later plugins and returned to the agent as `modified_args`. */
  modifiedArgs?: unknown;
}

/** A tool's output, as `POST /v1/results` carries it. */
export interface ToolResult {
  output: string;
  is_error: boolean;
}

/** An extension hook module: `export default {name, beforeExecute, afterExecute}` or the same as named exports. */
export interface ToolgatePlugin {
  name: string;
  beforeExecute?(
    call: PluginCall,
    ctx: PluginContext,
  ): PluginDecision | undefined | void | Promise<PluginDecision | undefined | void>;
  afterExecute?(call: PluginCall, result: ToolResult, ctx: { decisionId: string }): ToolResult | Promise<ToolResult>;
}

/** How long a plugin may take before it counts as failed (a hung plugin must not hold every decision). */
export const PLUGIN_TIMEOUT_MS = 5000;
/** Decisions remembered for their results (which plugins ran, on which arguments). */
const MAX_REMEMBERED = 10_000;

interface Ran {
  call: PluginCall;
  /** Plugins whose beforeExecute completed, in registration order. */
  executed: ToolgatePlugin[];
}

/** Loads plugin modules from paths (relative to `cwd`); a module that is not a plugin is an error naming the file. */
export async function loadPlugins(paths: readonly string[], cwd = process.cwd()): Promise<ToolgatePlugin[]> {
  const plugins: ToolgatePlugin[] = [];
  for (const path of paths) {
    const file = resolvePath(cwd, path);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`plugin ${path}: cannot load: ${(error as Error).message}`, { cause: error });
    }
    const candidate = (mod.default && typeof mod.default === 'object' ? mod.default : mod) as Partial<ToolgatePlugin>;
    plugins.push(checkPlugin(candidate, path));
  }
  return plugins;
}

/** Checks the shape of a plugin object; throws an error naming `where` when it is not one. */
export function checkPlugin(candidate: Partial<ToolgatePlugin>, where: string): ToolgatePlugin {
  if (typeof candidate.name !== 'string' || !candidate.name.trim())
    throw new Error(`plugin ${where}: export a non-empty string \`name\``);
  if (candidate.beforeExecute !== undefined && typeof candidate.beforeExecute !== 'function')
    throw new Error(`plugin ${where}: beforeExecute must be a function`);
  if (candidate.afterExecute !== undefined && typeof candidate.afterExecute !== 'function')
    throw new Error(`plugin ${where}: afterExecute must be a function`);
  if (!candidate.beforeExecute && !candidate.afterExecute)
    throw new Error(`plugin ${where}: export beforeExecute and/or afterExecute`);
  return candidate as ToolgatePlugin;
}

/** The plugin chain of one toolgate: its verdict stage, and the after-execute chain for results. */
export class PluginChain {
  private readonly ran = new Map<string, Ran>();

  constructor(
    private readonly toolgate: Toolgate,
    readonly plugins: readonly ToolgatePlugin[],
    private readonly onError: (message: string) => void = () => {},
  ) {}

  /**
   * The verdict stage, with the seed's semantics: a built-in deny stops before any plugin; a plugin's deny stops the
   * chain; an allow (a rule's or a plugin's) marks the call explicitly allowed so later plugins' asks are skipped;
   * modifiedArgs apply to later plugins and go back to the agent. A plugin that throws, times out or answers
   * nonsense makes the call ask, naming the plugin. Rewritten arguments are decided again by the built-in pipeline:
   * a rewrite cannot reach what a deny rule or a protected path forbids.
   */
  readonly stage = async (
    verdict: StageVerdict,
    input: DecideInput,
    { decisionId }: StageContext,
  ): Promise<StageVerdict> => {
    if (verdict.decision === 'deny') return verdict;
    let current: StageVerdict = verdict;
    let explicit = verdict.decision === 'allow' && (verdict.source === 'rule' || verdict.source === 'session_grant');
    let args = input.args;
    let rewrittenBy: string | undefined;
    const call = (): PluginCall => ({
      tool: input.tool,
      canonicalTool: verdict.call.tool,
      args,
      agentId: input.agentId,
      sessionId: input.sessionId,
      cwd: input.cwd,
      toolCallId: input.toolCallId,
    });
    const executed: ToolgatePlugin[] = [];
    const note = (name: string, outcome: 'decided' | 'passed' | 'skipped', detail: string) =>
      current.trace?.push({ stage: 'plugin', outcome, detail: `${name}: ${detail}` });
    for (const plugin of this.plugins) {
      if (!plugin.beforeExecute) {
        executed.push(plugin);
        continue;
      }
      let result: PluginDecision | undefined;
      try {
        result = checkDecision(
          await withTimeout(
            Promise.resolve(
              plugin.beforeExecute(call(), {
                decisionId,
                decision: current.decision,
                reason: current.reason,
                explicitlyAllowed: explicit,
              }),
            ),
            PLUGIN_TIMEOUT_MS,
          ),
        );
      } catch (error) {
        const message = `plugin ${plugin.name} failed (${(error as Error)?.message ?? String(error)}), so a human must decide`;
        this.onError(message);
        note(plugin.name, 'decided', message);
        current = this.ask(current, input, message, 'high');
        continue;
      }
      executed.push(plugin);
      if (!result) {
        note(plugin.name, 'passed', 'no opinion');
        continue;
      }
      const reason = result.reason?.trim() || `plugin ${plugin.name} answered ${result.action}`;
      if (result.action === 'deny') {
        note(plugin.name, 'decided', `deny: ${reason}`);
        current = {
          ...current,
          decision: 'deny',
          reason: `denied by plugin ${plugin.name}: ${reason}`,
          risk: result.risk ?? current.risk ?? 'high',
          source: 'plugin',
          needsHuman: false,
        };
        delete current.modifiedArgs;
        this.remember(decisionId, { call: call(), executed });
        return current;
      }
      if (result.modifiedArgs !== undefined) {
        args = result.modifiedArgs;
        rewrittenBy = plugin.name;
        current = {
          ...current,
          modifiedArgs: args,
          reason: `${current.reason}; plugin ${plugin.name} rewrote the arguments: ${reason}`,
          source: current.decision === 'allow' ? 'plugin' : current.source,
        };
      }
      if (result.action === 'allow') {
        explicit = true;
        note(plugin.name, 'passed', `allow: ${reason}`);
      } else if (explicit) {
        note(plugin.name, 'skipped', `ask skipped, the call is explicitly allowed: ${reason}`);
      } else {
        note(plugin.name, 'decided', `ask: ${reason}`);
        current = this.ask(current, input, `plugin ${plugin.name} asks: ${reason}`, result.risk ?? 'medium');
      }
    }
    if (rewrittenBy && current.decision !== 'deny')
      current = await this.recheck(current, input, args, rewrittenBy, explicit);
    this.remember(decisionId, { call: call(), executed });
    return current;
  };

  /** Runs afterExecute of the plugins whose beforeExecute ran for this decision, in reverse order. */
  async afterExecute(
    decisionId: string,
    result: ToolResult,
  ): Promise<{ result: ToolResult; notes: string[]; known: boolean }> {
    const ran = this.ran.get(decisionId);
    const notes: string[] = [];
    if (!ran) return { result, notes, known: false };
    let current = result;
    for (const plugin of [...ran.executed].reverse()) {
      if (!plugin.afterExecute) continue;
      try {
        const next = await withTimeout(
          Promise.resolve(plugin.afterExecute(ran.call, current, { decisionId })),
          PLUGIN_TIMEOUT_MS,
        );
        if (!next || typeof next.output !== 'string' || typeof next.is_error !== 'boolean')
          throw new Error('afterExecute must return {output: string, is_error: boolean}');
        if (next.output !== current.output || next.is_error !== current.is_error)
          notes.push(`plugin ${plugin.name} changed the output`);
        current = { output: next.output, is_error: next.is_error };
      } catch (error) {
        const message = `plugin ${plugin.name} afterExecute failed (${(error as Error)?.message ?? String(error)}); its change was skipped`;
        this.onError(message);
        notes.push(message);
      }
    }
    this.ran.delete(decisionId);
    return { result: current, notes, known: true };
  }

  /** An ask from a plugin, resolved by the mode as the pipeline resolves its own asks. */
  private ask(current: StageVerdict, input: DecideInput, reason: string, risk: Risk): StageVerdict {
    if (current.decision === 'ask') {
      return { ...current, reason: `${current.reason}; ${reason}`, risk: higher(current.risk, risk) };
    }
    const mode = effectiveMode(this.toolgate.engine.operatorMode, input.mode);
    if (mode.flags.autoResolve === 'all' || (mode.flags.autoResolve === 'below_high' && risk !== 'high')) {
      return {
        ...current,
        decision: 'allow',
        reason: `mode ${mode.name} allowed a ${risk}-risk call that would have asked: ${reason}`,
        risk,
        source: 'mode',
        needsHuman: false,
      };
    }
    if (input.interactive === false) {
      const fallback = this.toolgate.engine.askFallback;
      return {
        ...current,
        decision: fallback,
        reason: `${reason} (no human can answer a non-interactive call: ask_fallback is ${fallback})`,
        risk,
        source: 'fallback',
        needsHuman: false,
      };
    }
    return { ...current, decision: 'ask', reason, risk, source: 'plugin', needsHuman: true };
  }

  /** Decides rewritten arguments with the built-in pipeline; its deny always wins, its ask unless the call is explicitly allowed. */
  private async recheck(
    current: StageVerdict,
    input: DecideInput,
    args: unknown,
    by: string,
    explicit: boolean,
  ): Promise<StageVerdict> {
    const policy = await this.toolgate.policy.current();
    const again = decideCall(
      {
        call: { tool: input.tool, args, agentId: input.agentId, sessionId: input.sessionId, cwd: input.cwd },
        mode: input.mode,
        interactive: input.interactive,
      },
      policy,
      this.toolgate.engine,
    );
    if (again.decision === 'deny') {
      const denied: StageVerdict = {
        ...current,
        decision: 'deny',
        reason: `plugin ${by} rewrote the arguments, and the rewritten call is denied: ${again.reason}`,
        risk: again.risk ?? 'high',
        source: again.source,
        rule: again.rule,
        needsHuman: false,
      };
      delete denied.modifiedArgs;
      return denied;
    }
    if (again.decision === 'ask' && current.decision === 'allow' && !explicit) {
      return {
        ...current,
        decision: 'ask',
        reason: `plugin ${by} rewrote the arguments, and the rewritten call needs a human: ${again.reason}`,
        risk: again.risk,
        source: again.source,
        findings: again.findings,
        needsHuman: true,
      };
    }
    return current;
  }

  private remember(decisionId: string, ran: Ran): void {
    this.ran.set(decisionId, ran);
    if (this.ran.size > MAX_REMEMBERED) this.ran.delete(this.ran.keys().next().value!);
  }
}

/**
 * The chain installed on a toolgate. Kept beside the instance (not on it) because the service object is built
 * before plugins load; a WeakMap keyed by the instance is per-toolgate state, not a global.
 */
const chains = new WeakMap<Toolgate, PluginChain>();

/** Installs plugins as one stage after the built-in pipeline (registration order) and returns the chain. */
export function installPlugins(
  toolgate: Toolgate,
  plugins: readonly ToolgatePlugin[],
  onError?: (message: string) => void,
): PluginChain {
  if (chains.has(toolgate)) throw new Error('plugins are already installed on this toolgate');
  const chain = new PluginChain(toolgate, plugins, onError);
  toolgate.addStage(chain.stage);
  chains.set(toolgate, chain);
  return chain;
}

/** The plugin chain of a toolgate, if plugins were installed. */
export function pluginChainOf(toolgate: Toolgate): PluginChain | undefined {
  return chains.get(toolgate);
}

function checkDecision(value: unknown): PluginDecision | undefined {
  if (value === undefined || value === null) return undefined;
  const d = value as PluginDecision;
  if (typeof d !== 'object' || !['allow', 'deny', 'ask'].includes(d.action))
    throw new Error(
      `beforeExecute returned ${JSON.stringify(value)?.slice(0, 200)}; expected {action: allow|deny|ask} or nothing`,
    );
  if (d.risk !== undefined && !(d.risk in RISK_ORDER))
    throw new Error(`risk must be high, medium or low, not ${String(d.risk)}`);
  if (d.reason !== undefined && typeof d.reason !== 'string') throw new Error('reason must be a string');
  return d;
}

function higher(a: Risk | null, b: Risk): Risk {
  return a && RISK_ORDER[a] >= RISK_ORDER[b] ? a : b;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      timer.unref();
    }),
  ]);
}
