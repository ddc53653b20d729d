/**
 * One line that says what a run answered, for the history list: the first error, the record count
 * (with the filtered total), a count, the id a mutation touched, or a multi-query's tally.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { ResultSection, ResultView } from '../../response/result-view.ts';

const MAX = 200;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX ? `${oneLine.slice(0, MAX - 1)}…` : oneLine;
}

function idOf(payload: JsonValue): string | null {
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload) && 'id' in payload) return String(payload.id);
  return null;
}

function sectionSummary(section: ResultSection): string {
  const intent = section.intent ?? 'result';
  const first = section.errors[0];
  if (first) {
    const others = section.errors.length + section.errorsUnread - 1;
    const more = others > 0 ? ` (+${others} more)` : '';
    return `${first.code}: ${first.message}${more}`;
  }
  const payload = section.payload;
  if (Array.isArray(payload)) {
    const filtered = section.extras?.filtered;
    const n = payload.length;
    const noun = n === 1 ? 'record' : 'records';
    return typeof filtered === 'number' && filtered !== n ? `${intent} · ${n} of ${filtered} ${noun}` : `${intent} · ${n} ${noun}`;
  }
  if (intent === 'count' && typeof payload === 'object' && payload !== null && 'count' in payload) return `count · ${String(payload.count)}`;
  const id = idOf(payload);
  if (id !== null) return `${intent} · id ${id}`;
  return payload === null ? intent : `${intent} · ${typeof payload === 'object' ? 'object' : JSON.stringify(payload)}`;
}

export function summarizeView(view: ResultView): string {
  if (view.parseError) return clip(`${view.httpStatus}: ${view.parseError}`);
  if (view.errors[0]) return clip(`${view.errors[0].code}: ${view.errors[0].message}`);
  if (view.isMulti) {
    const failed = view.sections.filter((s) => s.errors.length > 0 || s.errorsUnread > 0).length;
    const n = view.sections.length;
    return clip(`multi · ${n} ${n === 1 ? 'query' : 'queries'}${failed > 0 ? `, ${failed} failed` : ''}`);
  }
  const section = view.sections[0];
  return clip(section ? sectionSummary(section) : `${view.httpStatus}`);
}

/** A run that got no answer at all (network error, timeout). */
export function summarizeFailure(message: string): string {
  return clip(`no answer: ${message}`);
}
