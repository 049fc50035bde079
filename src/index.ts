// The package's entry (`import … from 'toolgate'`): the service to embed, the engine's pure decision, and their
// types. The HTTP client is `toolgate/client`; the command line is bin/toolgate.js.
//
//   const toolgate = await createToolgate(loadConfig({ 'data-dir': dir }));
//   const { verdict } = await toolgate.decider.decide({ tool: 'bash', args: { command: 'git status' } });  // POST /v1/decide
//   await toolgate.close();
//
// or, offline, with rules of your own (what `toolgate check` does):
//
//   const verdict = decide({ call: { tool: 'bash', args: { command: 'rm -rf ~' } } }, compilePolicy(rules, aliases, home), ctx);

export { loadConfig, ConfigError, type Config, type ConfigFlags, type NamedToken } from './config.ts';
export { createToolgate, realpathIfExists, type Toolgate, type ToolgateOptions } from './service/toolgate.ts';
export type { DecideInput, DecideOutcome } from './service/decider.ts';
export { loadShellAnalyzer } from './service/bash-language.ts';

export { decide, type DecideRequest, type EngineContext, type RuleRef, type Verdict } from './engine/decide.ts';
export { compilePolicy, type Policy } from './engine/rules/policy.ts';
export type { Rule } from './engine/rules/rule.ts';
export { buildAliasIndex, type AliasIndex } from './engine/catalog/tool-aliases.ts';
export type { ShellAnalyzer, ShellAnalyzerOptions } from './engine/shell/analyzer.ts';
export type { Decision, DecisionSource, Effect, Finding, Mode, Risk } from './engine/types.ts';
