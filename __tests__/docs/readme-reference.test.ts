/**
 * The README's reference parts, checked against the code, so that neither can change without the
 * other:
 * - the "Options" table names every top-level option of `AuthConfig` (CONFIG_OPTIONS, which the
 *   type checker keeps equal to the interface's keys) and every option of `session` and `jwt`;
 * - the "Error reference" has one entry (cause, what the user sees, fix) per `ERROR_TYPES` entry,
 *   and the JSON statuses it and the "Errors" table give are the ones the code answers;
 * - the "Logging" table has every warning code (`WARNINGS`);
 * - the "Audit trail" types table has every audit record type (the audit trail's own and each
 *   capability's `auditTypes`);
 * - the "Contents" list is the `##` headings, in order, and every `#anchor` link has a heading.
 * Each comparison is both ways: a name the code has and the README lacks fails, and so does a
 * name the README lists and the code does not have.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { CONFIG_OPTIONS as CORE_OPTIONS, JWT_OPTIONS, SESSION_OPTIONS } from "../../lib/core/config/validate.js"
import { CAPABILITIES } from "../../lib/capabilities.js"
import { publicError } from "../../lib/core/error-outcome.js"
import { AuthError, ERROR_TYPES, type ErrorType } from "../../lib/errors.js"
import { WARNINGS } from "../../lib/warnings.js"

/** Every top-level option: the core's and each capability's (its options' `names`). */
const CONFIG_OPTIONS = Object.freeze([...CORE_OPTIONS, ...CAPABILITIES.flatMap((capability) => capability.options?.names ?? [])])

/** Every audit record type, in the order of lib/capabilities.ts: each capability's, the audit trail's own (the core's) among them. */
const AUDIT_TYPES: readonly string[] = CAPABILITIES.flatMap((capability) => capability.auditTypes ?? [])

const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../../README.md"), "utf8")

/** The README's lines outside fenced code blocks (a `## ` inside a code block is not a heading). */
function proseLines(text: string): string[] {
  let fenced = false
  return text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    return fenced || /^\s*```/.test(line) ? "" : line
  })
}

/** The text under `## <title>`, up to the next `## ` heading. */
function section(text: string, title: string): string {
  const lines = proseLines(text)
  const start = lines.indexOf(`## ${title}`)
  if (start < 0) throw new Error(`README has no "## ${title}" section`)
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "))
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n")
}

/** The body rows of the Markdown tables in `text`, as trimmed cells (`\|` stays inside a cell). */
function tableRows(text: string): string[][] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) => line.replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim()))
    .filter((cells, index, rows) => !/^:?-+:?$/.test(cells[0] ?? "") && !/^:?-+:?$/.test(rows[index + 1]?.[0] ?? ""))
}

/** The `code spans` of a cell. */
function codes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string)
}

function difference(listed: Iterable<string>, actual: Iterable<string>): { undocumented: string[]; unknown: string[] } {
  const a = new Set(listed)
  const b = new Set(actual)
  return { undocumented: [...b].filter((name) => !a.has(name)).sort(), unknown: [...a].filter((name) => !b.has(name)).sort() }
}

const NESTED: Readonly<Record<string, readonly string[]>> = { session: SESSION_OPTIONS, jwt: JWT_OPTIONS }

/** The option names of the Options table: every code span of the first column. */
function optionNames(text: string): string[] {
  return tableRows(section(text, "Options")).flatMap((cells) => codes(cells[0] ?? ""))
}

function checkOptions(text: string) {
  const names = optionNames(text)
  const top = difference(names.map((name) => name.split(".")[0] as string), CONFIG_OPTIONS)
  const nested = Object.fromEntries(
    Object.entries(NESTED).map(([parent, options]) => [
      parent,
      difference(names.filter((name) => name.startsWith(`${parent}.`)).map((name) => name.slice(parent.length + 1)), options),
    ]),
  )
  // Only session and jwt options are listed nested; any other dotted name is not an option.
  const strayNested = names.filter((name) => name.includes(".") && !(name.split(".")[0] as string in NESTED))
  return { top, nested, strayNested }
}

function errorReferenceRows(text: string): string[][] {
  return tableRows(section(text, "Error reference"))
}

function checkErrorReference(text: string) {
  const rows = errorReferenceRows(text)
  const names = rows.map((cells) => codes(cells[0] ?? "")).flat()
  const duplicates = names.filter((name, index) => names.indexOf(name) !== index)
  return { ...difference(names, ERROR_TYPES), duplicates }
}

function checkWarnings(text: string) {
  return difference(tableRows(section(text, "Logging")).flatMap((cells) => codes(cells[0] ?? "")), Object.keys(WARNINGS))
}

/** The first column of the "Audit trail" types table (the table after "**Types.**"). */
function auditTypeNames(text: string): string[] {
  const audit = section(text, "Audit trail")
  const table = audit.slice(audit.indexOf("**Types.**")).split("\n\n")[1] ?? ""
  return tableRows(table).flatMap((cells) => codes(cells[0] ?? ""))
}

function checkAuditTypes(text: string) {
  const names = auditTypeNames(text)
  return { ...difference(names, AUDIT_TYPES), duplicates: names.filter((name, index) => names.indexOf(name) !== index) }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const line of proseLines(text)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1]
    if (!heading) continue
    const base = heading.toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    out.add(count ? `${base}-${count}` : base)
  }
  return out
}

/** An error of that type, as the code sees it. */
function errorOf(type: ErrorType): AuthError {
  return Object.assign(new AuthError(), { type })
}

/**
 * The JSON status of a type as answered to a client. Two are answered outside `publicError`:
 * RateLimited (429, error-outcome.ts) and SessionRequired (401, requireAuth).
 */
function jsonStatus(type: ErrorType): number {
  if (type === "RateLimited") return 429
  if (type === "SessionRequired") return 401
  return publicError(errorOf(type)).status
}

describe("README Options table ⇔ AuthConfig", () => {
  test("the top-level names are exactly the options AuthConfig accepts (CONFIG_OPTIONS)", () => {
    expect(checkOptions(README).top).toEqual({ undocumented: [], unknown: [] })
  })

  test("the session.* and jwt.* names are exactly SessionOptions' and JWTOptions' keys; no other nested names", () => {
    const { nested, strayNested } = checkOptions(README)
    expect(nested).toEqual({ session: { undocumented: [], unknown: [] }, jwt: { undocumented: [], unknown: [] } })
    expect(strayNested).toEqual([])
  })

  test("each row has a default and a meaning", () => {
    for (const cells of tableRows(section(README, "Options"))) {
      expect({ row: cells[0], cells: cells.length }).toEqual({ row: cells[0], cells: 3 })
      expect({ row: cells[0], default: Boolean(cells[1]), meaning: Boolean(cells[2]) }).toEqual({ row: cells[0], default: true, meaning: true })
    }
  })

  test("CONFIG_OPTIONS, SESSION_OPTIONS and JWT_OPTIONS are frozen and without repeats", () => {
    for (const list of [CONFIG_OPTIONS, SESSION_OPTIONS, JWT_OPTIONS]) {
      expect(Object.isFrozen(list)).toBe(true)
      expect(new Set(list).size).toBe(list.length)
    }
  })
})

describe("README Error reference ⇔ ERROR_TYPES", () => {
  test("one entry per error type, each type once", () => {
    expect(checkErrorReference(README)).toEqual({ undocumented: [], unknown: [], duplicates: [] })
  })

  test("each entry names one type and gives a cause, what the user sees, and a fix", () => {
    for (const cells of errorReferenceRows(README)) {
      expect({ type: cells[0], names: codes(cells[0] ?? "").length, cells: cells.length }).toEqual({ type: cells[0], names: 1, cells: 4 })
      expect({ type: cells[0], filled: cells.map(Boolean) }).toEqual({ type: cells[0], filled: [true, true, true, true] })
    }
  })

  test('the JSON statuses it gives ("JSON 403", "404 with a JSON body") are the ones the code answers', () => {
    for (const cells of errorReferenceRows(README)) {
      const type = codes(cells[0] ?? "")[0] as ErrorType
      const seen = cells[2] ?? ""
      const stated = /JSON (\d{3})/.exec(seen)?.[1] ?? /(\d{3}) with (?:`Allow` and )?a JSON body/.exec(seen)?.[1]
      if (stated) expect({ type, status: Number(stated) }).toEqual({ type, status: jsonStatus(type) })
    }
  })

  test('the "Errors" outcome table names only error types, with the JSON status the code answers', () => {
    const rows = tableRows(section(README, "Errors"))
    expect(rows.length).toBeGreaterThan(5)
    for (const cells of rows) {
      const types = codes(cells[0] ?? "")
      expect(types.filter((type) => !(ERROR_TYPES as readonly string[]).includes(type))).toEqual([])
      const stated = /^(\d{3})\b/.exec(cells[2] ?? "")?.[1]
      for (const type of stated ? (types as ErrorType[]) : []) expect({ type, status: Number(stated) }).toEqual({ type, status: jsonStatus(type) })
    }
  })
})

describe("README Logging ⇔ WARNINGS", () => {
  test("the warning table has exactly the codes the code can log", () => {
    expect(checkWarnings(README)).toEqual({ undocumented: [], unknown: [] })
  })
})

describe("README Audit trail ⇔ the audit record types", () => {
  test("the types table lists each record type once: the audit trail's own and each capability's (auditTypes)", () => {
    expect(AUDIT_TYPES.length).toBeGreaterThan(10)
    expect(checkAuditTypes(README)).toEqual({ undocumented: [], unknown: [], duplicates: [] })
  })

  test("no record type is listed by two capabilities", () => {
    expect(AUDIT_TYPES.filter((type, index) => AUDIT_TYPES.indexOf(type) !== index)).toEqual([])
  })
})

describe("README structure", () => {
  test("the Contents list is the ## headings, in order, with their anchors", () => {
    const headings = proseLines(README)
      .filter((line) => line.startsWith("## ") && line !== "## Contents")
      .map((line) => line.slice(3))
    const listed = section(README, "Contents")
      .split("\n")
      .map((line) => /^- \[(.+)\]\(#(.+)\)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
    expect(listed.map((match) => match[1])).toEqual(headings)
    const known = anchors(README)
    expect(listed.map((match) => match[2]).filter((anchor) => !known.has(anchor as string))).toEqual([])
  })

  test("the Contents entries under Guides are the ### headings of that section, in order", () => {
    const guides = section(README, "Guides")
      .split("\n")
      .filter((line) => line.startsWith("### "))
      .map((line) => line.slice(4))
    const listed = section(README, "Contents")
      .split("\n")
      .map((line) => /^ {2}- \[(.+)\]\(#.+\)$/.exec(line)?.[1])
      .filter((title): title is string => title !== undefined)
    expect(guides.length).toBeGreaterThan(0)
    expect(listed).toEqual(guides)
  })

  test("every #anchor link points at a heading", () => {
    const known = anchors(README)
    const links = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1] as string)
    expect(links.length).toBeGreaterThan(10)
    expect([...new Set(links.filter((anchor) => !known.has(anchor)))]).toEqual([])
  })
})

describe("the checks fail when the README and the code disagree", () => {
  const dropRow = (text: string, start: string) => text.split("\n").filter((line) => !line.startsWith(start)).join("\n")
  const addRowAfter = (text: string, start: string, row: string) =>
    text.split("\n").flatMap((line) => (line.startsWith(start) ? [line, row] : [line])).join("\n")

  test("an option, a session option, an error type or a warning missing from the README", () => {
    expect(checkOptions(dropRow(README, "| `store` |")).top.undocumented).toEqual(["store"])
    expect(checkOptions(dropRow(README, "| `session.updateAge` |")).nested.session?.undocumented).toEqual(["updateAge"])
    expect(checkErrorReference(dropRow(README, "| `RateLimited` |")).undocumented).toEqual(["RateLimited"])
    expect(checkWarnings(dropRow(README, "| `csrf-disabled` |")).undocumented).toEqual(["csrf-disabled"])
  })

  test("an option, a jwt option, an error type or a warning the code does not have", () => {
    expect(checkOptions(addRowAfter(README, "| `store` |", "| `sessionStore` | none | Made up. |")).top.unknown).toEqual(["sessionStore"])
    expect(checkOptions(addRowAfter(README, "| `jwt.maxAge` |", "| `jwt.secret` | none | Made up. |")).nested.jwt?.unknown).toEqual(["secret"])
    expect(checkOptions(addRowAfter(README, "| `store` |", "| `theme.font` | none | Made up. |")).strayNested).toEqual(["theme.font"])
    expect(checkErrorReference(addRowAfter(README, "| `RateLimited` |", "| `TooSlow` | a | b | c |")).unknown).toEqual(["TooSlow"])
    expect(checkErrorReference(addRowAfter(README, "| `RateLimited` |", "| `RateLimited` | a | b | c |")).duplicates).toEqual(["RateLimited"])
    expect(checkWarnings(addRowAfter(README, "| `csrf-disabled` |", "| `made-up-warning` | a | b |")).unknown).toEqual(["made-up-warning"])
  })

  test("an audit record type missing from the README, or one the code does not have", () => {
    expect(checkAuditTypes(dropRow(README, "| `two_factor.challenge` |")).undocumented).toEqual(["two_factor.challenge"])
    expect(checkAuditTypes(addRowAfter(README, "| `password.reset` |", "| `password.forgotten` | a | |")).unknown).toEqual(["password.forgotten"])
    expect(checkAuditTypes(addRowAfter(README, "| `password.reset` |", "| `password.reset` | a | |")).duplicates).toEqual(["password.reset"])
  })
})
