/**
 * The audit trail in tests: a callback that keeps every record, and the check that no record
 * holds any of the secrets a flow used (passwords, codes, tokens, cookies), whatever the field.
 */
import { expect, jest } from "@jest/globals"
import type { AuditRecord } from "../../lib/types.js"

export interface AuditLog {
  records: AuditRecord[]
  audit: jest.Mock<(record: AuditRecord) => void>
  /** The records of one type, in order. */
  of(type: AuditRecord["type"]): AuditRecord[]
  /** Waits until a record of `type` arrives (records of work done after the answer come later). */
  waitFor(type: AuditRecord["type"], count?: number): Promise<AuditRecord[]>
}

export function auditLog(): AuditLog {
  const records: AuditRecord[] = []
  const audit = jest.fn((record: AuditRecord) => void records.push(record))
  const of = (type: AuditRecord["type"]) => records.filter((record) => record.type === type)
  return {
    records,
    audit,
    of,
    async waitFor(type, count = 1) {
      for (let i = 0; i < 100 && of(type).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      return of(type)
    },
  }
}

/** Every string in a record, however deep (keys too). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value)
  else if (Array.isArray(value)) value.forEach((item) => stringsIn(item, out))
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key)
      stringsIn(item, out)
    }
  }
  return out
}

/** No record holds any of `secrets` (each at least 6 characters), in any field. */
export function expectNoSecrets(records: AuditRecord[], secrets: Array<string | undefined>): void {
  const used = secrets.filter((secret): secret is string => typeof secret === "string" && secret.length >= 6)
  expect(used.length).toBeGreaterThan(0)
  for (const record of records) {
    for (const text of stringsIn(record)) {
      for (const secret of used) expect(text.includes(secret) ? `${record.type} holds a secret: ${text}` : "clean").toBe("clean")
    }
  }
}

/** The fields every record has. */
export function expectCommonFields(record: AuditRecord, requestId?: string): void {
  expect(new Date(record.time).toISOString()).toBe(record.time)
  expect(Date.now() - Date.parse(record.time)).toBeLessThan(60_000)
  expect(["success", "failure"]).toContain(record.outcome)
  if (requestId !== undefined) expect(record.requestId).toBe(requestId)
}

/** Every cookie value a response set (for the secrets scan). */
export function cookieValues(response: { headers: Record<string, unknown> }): string[] {
  const raw = response.headers["set-cookie"]
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]
  return lines.map((line) => String(line).split(";")[0]!.split("=").slice(1).join("=")).filter(Boolean)
}
