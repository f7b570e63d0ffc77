import type { AuditEvent } from './audit-log.js';

const COLUMNS = ['at', 'actor_kind', 'actor_id', 'actor_label', 'action', 'target', 'ip'] as const;

/**
 * One CSV cell (RFC 4180). A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab,
 * CR) gets a leading apostrophe: a member's name or a key's name must not become a formula in
 * the admin's Excel.
 */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The audit log as CSV, with a BOM so that Excel reads the Korean as UTF-8. */
export function auditCsv(events: readonly AuditEvent[]): string {
  const rows = events.map((event) =>
    [event.at, event.actor.kind, event.actor.id, event.actor.label, event.action, event.target, event.ip ?? ''].map(cell).join(','),
  );
  return `\uFEFF${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
