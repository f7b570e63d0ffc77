import { describe, expect, it } from 'vitest';
import { auditCsv } from '../src/platform/audit-csv.js';
import type { AuditEvent } from '../src/platform/audit-log.js';

const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: 1,
  at: '2026-11-28T06:00:00.000Z',
  actor: { kind: 'member', id: '1', label: 'dev@example.com' },
  action: 'key.created',
  target: 'key:1 aik_abc laptop',
  ip: '203.0.113.7',
  ...over,
});

describe('the audit CSV', () => {
  it('starts with a BOM and the header, one CRLF line per event', () => {
    const csv = auditCsv([event({}), event({ id: 2, ip: null })]);
    expect(csv).toBe(
      '\uFEFFat,actor_kind,actor_id,actor_label,action,target,ip\r\n' +
        '2026-11-28T06:00:00.000Z,member,1,dev@example.com,key.created,key:1 aik_abc laptop,203.0.113.7\r\n' +
        '2026-11-28T06:00:00.000Z,member,1,dev@example.com,key.created,key:1 aik_abc laptop,\r\n',
    );
  });

  it('quotes commas, quotes and line breaks, and defuses cells a spreadsheet would run', () => {
    const csv = auditCsv([
      event({ target: 'key:1 aik_abc a,"b"\nc' }),
      event({ actor: { kind: 'slack', id: '=1+1', label: '@SUM(A1)' } }),
      event({ actor: { kind: 'member', id: '1', label: '-2+3' }, target: '+cmd' }),
    ]);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[1]).toContain(',"key:1 aik_abc a,""b""\nc",');
    expect(lines[2]).toContain(",slack,'=1+1,'@SUM(A1),");
    expect(lines[3]).toContain(",'-2+3,key.created,'+cmd,");
  });

  it('is only the header when there is nothing', () => {
    expect(auditCsv([])).toBe('\uFEFFat,actor_kind,actor_id,actor_label,action,target,ip\r\n');
  });
});
