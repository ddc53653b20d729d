/**
 * The rule of read-only mode in one place: what a connection in read-only mode refuses, the one
 * sentence that says so, and what "Run once anyway" asks for. The editor run, the upload form and
 * the Diff all call it.
 */
import type { DocumentEffect } from './classify-document.ts';
import { needsTypedName, type DeploymentKind } from './connection-kinds.ts';

export interface GuardedConnection {
  name: string;
  deployment: DeploymentKind;
  readOnly: boolean;
}

export interface Refusal {
  /** One sentence: what was refused and why. */
  sentence: string;
  /** "Run once anyway" needs this typed first (a production connection's name), or null. */
  confirmName: string | null;
}

export function refuseWrite(effect: DocumentEffect, connection: GuardedConnection): Refusal | null {
  if (!effect.writes || !connection.readOnly) return null;
  return {
    sentence: `Not sent: ${effect.what}, and “${connection.name}” (${connection.deployment}) is in read-only mode.`,
    confirmName: needsTypedName(connection.deployment) ? connection.name : null,
  };
}

/** Diff runs the document on two servers to compare answers: it never sends a write, whatever the kinds. */
export function refuseInDiff(effect: DocumentEffect): string | null {
  if (!effect.writes) return null;
  return `Diff never writes: ${effect.what}, so it is not sent to either side.`;
}
