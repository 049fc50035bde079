// Findings the analyzer raises about the shape of a command rather than its program: non-literal names, hidden code.
import type { Risk } from '../types.ts';

/** One structural finding: id, risk, reason, and commands that must raise it. */
export interface AnalysisFindingEntry {
  id: string;
  risk: Risk;
  reason: string;
  examples: string[];
}

/** The structural findings, by id. */
export const ANALYSIS_FINDINGS = {
  nameVariable: {
    id: 'command-name-variable',
    risk: 'medium',
    reason: 'the program name comes from a variable, so what runs is not written in the command',
    examples: ['x=$(cat cmd.txt); $x -fr ~', '$EDITOR notes.txt', '"$CMD" --force'],
  },
  nameSubstitution: {
    id: 'command-name-substitution',
    risk: 'medium',
    reason: 'the program name is the output of a command substitution',
    examples: ['`echo rm` -r -f ~/work', '$(cat tool.txt) x.py', 'g$(printf it) status'],
  },
  nameGlob: {
    id: 'command-name-glob',
    risk: 'medium',
    reason: 'the program name is a glob the shell expands (/usr/bin/s?do)',
    examples: ['/usr/bin/s?do whoami', '/usr/*/git status'],
  },
  nameBrace: {
    id: 'command-name-brace',
    risk: 'medium',
    reason: 'the command line is produced by brace expansion',
    examples: ['{rm,-rf,~}', '{ls,-la}'],
  },
  dynamicCode: {
    id: 'dynamic-code',
    risk: 'medium',
    reason: 'code whose text is only known at run time is executed (eval/sh -c of a variable or substitution)',
    examples: ['eval "$CMD"', 'bash -c "$1"', 'sh -c "$(cat cmd.txt)"', 'echo ${foo@P}'],
  },
  decodedCommand: {
    id: 'decoded-command',
    risk: 'high',
    reason: 'the command line is decoded from an encoded payload (base64, hex, reversed text)',
    examples: ['$(echo cm0gLXJmIC9zcnYvZGF0YQ== | base64 -d)'],
  },
  forkBomb: {
    id: 'fork-bomb',
    risk: 'high',
    reason: 'a function that calls itself in a pipeline or in the background: a fork bomb',
    examples: [':(){ :|:& };:', 'bomb(){ bomb|bomb& };bomb'],
  },
  forkLoop: {
    id: 'fork-loop',
    risk: 'high',
    reason: 'an endless loop that starts programs in the background and never waits: a fork bomb',
    examples: ['while true; do bash & done', 'while :; do sh -c : & done'],
  },
  tooComplex: {
    id: 'analysis-incomplete',
    risk: 'medium',
    reason: 'part of the command could not be analysed',
    examples: [],
  },
} as const satisfies Record<string, AnalysisFindingEntry>;
