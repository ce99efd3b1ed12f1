/**
 * The reference parts of the docs, checked against the code, so that neither can change without
 * the other:
 * - the "Options" table of docs/configuration.md names every top-level option of `AuthConfig` (CONFIG_OPTIONS, which the
 *   type checker keeps equal to the interface's keys) and every option of `session` and `jwt`;
 * - the "Error reference" of docs/errors.md has one entry (cause, what the user sees, fix) per `ERROR_TYPES` entry,
 *   and the JSON statuses it and the "Errors" table give are the ones the code answers;
 * - the "Logging" table of docs/observability.md has every warning code (`WARNINGS`);
 * - the "Audit trail" types table of docs/audit.md has every audit record type (the audit trail's
 *   own and each capability's `auditTypes`);
 * - docs/README.md links every page of docs/, and the README links docs/README.md.
 * Each comparison is both ways: a name the code has and the page lacks fails, and so does a
 * name the page lists and the code does not have. (links.test.ts checks every link and anchor.)
 */
import { readdirSync, readFileSync } from "node:fs"
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

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..")
const read = (path: string) => readFileSync(join(ROOT, path), "utf8")
const README = read("README.md")
const CONFIGURATION = read("docs/configuration.md")
const ERRORS = read("docs/errors.md")
const OBSERVABILITY = read("docs/observability.md")
const AUDIT = read("docs/audit.md")

/** A page's lines outside fenced code blocks (a `## ` inside a code block is not a heading). */
function proseLines(text: string): string[] {
  let fenced = false
  return text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    return fenced || /^\s*```/.test(line) ? "" : line
  })
}

/** The text under the heading `<title>` (any level), up to the next heading of its level or higher. */
function section(text: string, title: string): string {
  const lines = proseLines(text)
  const start = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, "") === title)
  if (start < 0) throw new Error(`the page has no "${title}" heading`)
  const level = /^#+/.exec(lines[start] as string)![0].length
  const end = lines.findIndex((line, index) => index > start && /^#{1,6} /.test(line) && /^#+/.exec(line)![0].length <= level)
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

describe("docs/configuration.md Options table ⇔ AuthConfig", () => {
  test("the top-level names are exactly the options AuthConfig accepts (CONFIG_OPTIONS)", () => {
    expect(checkOptions(CONFIGURATION).top).toEqual({ undocumented: [], unknown: [] })
  })

  test("the session.* and jwt.* names are exactly SessionOptions' and JWTOptions' keys; no other nested names", () => {
    const { nested, strayNested } = checkOptions(CONFIGURATION)
    expect(nested).toEqual({ session: { undocumented: [], unknown: [] }, jwt: { undocumented: [], unknown: [] } })
    expect(strayNested).toEqual([])
  })

  test("each row has a default and a meaning", () => {
    for (const cells of tableRows(section(CONFIGURATION, "Options"))) {
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

describe("docs/errors.md Error reference ⇔ ERROR_TYPES", () => {
  test("one entry per error type, each type once", () => {
    expect(checkErrorReference(ERRORS)).toEqual({ undocumented: [], unknown: [], duplicates: [] })
  })

  test("each entry names one type and gives a cause, what the user sees, and a fix", () => {
    for (const cells of errorReferenceRows(ERRORS)) {
      expect({ type: cells[0], names: codes(cells[0] ?? "").length, cells: cells.length }).toEqual({ type: cells[0], names: 1, cells: 4 })
      expect({ type: cells[0], filled: cells.map(Boolean) }).toEqual({ type: cells[0], filled: [true, true, true, true] })
    }
  })

  test('the JSON statuses it gives ("JSON 403", "404 with a JSON body") are the ones the code answers', () => {
    for (const cells of errorReferenceRows(ERRORS)) {
      const type = codes(cells[0] ?? "")[0] as ErrorType
      const seen = cells[2] ?? ""
      const stated = /JSON (\d{3})/.exec(seen)?.[1] ?? /(\d{3}) with (?:`Allow` and )?a JSON body/.exec(seen)?.[1]
      if (stated) expect({ type, status: Number(stated) }).toEqual({ type, status: jsonStatus(type) })
    }
  })

  test('the "Errors" outcome table names only error types, with the JSON status the code answers', () => {
    const rows = tableRows(section(ERRORS, "Errors"))
    expect(rows.length).toBeGreaterThan(5)
    for (const cells of rows) {
      const types = codes(cells[0] ?? "")
      expect(types.filter((type) => !(ERROR_TYPES as readonly string[]).includes(type))).toEqual([])
      const stated = /^(\d{3})\b/.exec(cells[2] ?? "")?.[1]
      for (const type of stated ? (types as ErrorType[]) : []) expect({ type, status: Number(stated) }).toEqual({ type, status: jsonStatus(type) })
    }
  })
})

describe("docs/observability.md Logging ⇔ WARNINGS", () => {
  test("the warning table has exactly the codes the code can log", () => {
    expect(checkWarnings(OBSERVABILITY)).toEqual({ undocumented: [], unknown: [] })
  })
})

describe("docs/audit.md Audit trail ⇔ the audit record types", () => {
  test("the types table lists each record type once: the audit trail's own and each capability's (auditTypes)", () => {
    expect(AUDIT_TYPES.length).toBeGreaterThan(10)
    expect(checkAuditTypes(AUDIT)).toEqual({ undocumented: [], unknown: [], duplicates: [] })
  })

  test("no record type is listed by two capabilities", () => {
    expect(AUDIT_TYPES.filter((type, index) => AUDIT_TYPES.indexOf(type) !== index)).toEqual([])
  })
})

describe("docs structure", () => {
  test("docs/README.md links every page of docs/, and the README links docs/README.md", () => {
    const pages = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md") && name !== "README.md")
    const index = read("docs/README.md")
    const linked = new Set([...index.matchAll(/\]\(([\w-]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1]))
    expect(pages.length).toBeGreaterThan(15)
    expect(pages.filter((page) => !linked.has(page))).toEqual([])
    expect(README).toContain("](docs/README.md)")
  })

  test("the README stays a few screens long, its guides in docs/", () => {
    expect(README.split("\n").length).toBeLessThan(170)
  })
})

describe("the checks fail when the docs and the code disagree", () => {
  const dropRow = (text: string, start: string) => text.split("\n").filter((line) => !line.startsWith(start)).join("\n")
  const addRowAfter = (text: string, start: string, row: string) =>
    text.split("\n").flatMap((line) => (line.startsWith(start) ? [line, row] : [line])).join("\n")

  test("an option, a session option, an error type or a warning missing from the docs", () => {
    expect(checkOptions(dropRow(CONFIGURATION, "| `store` |")).top.undocumented).toEqual(["store"])
    expect(checkOptions(dropRow(CONFIGURATION, "| `session.updateAge` |")).nested.session?.undocumented).toEqual(["updateAge"])
    expect(checkErrorReference(dropRow(ERRORS, "| `RateLimited` |")).undocumented).toEqual(["RateLimited"])
    expect(checkWarnings(dropRow(OBSERVABILITY, "| `csrf-disabled` |")).undocumented).toEqual(["csrf-disabled"])
  })

  test("an option, a jwt option, an error type or a warning the code does not have", () => {
    expect(checkOptions(addRowAfter(CONFIGURATION, "| `store` |", "| `sessionStore` | none | Made up. |")).top.unknown).toEqual(["sessionStore"])
    expect(checkOptions(addRowAfter(CONFIGURATION, "| `jwt.maxAge` |", "| `jwt.secret` | none | Made up. |")).nested.jwt?.unknown).toEqual(["secret"])
    expect(checkOptions(addRowAfter(CONFIGURATION, "| `store` |", "| `theme.font` | none | Made up. |")).strayNested).toEqual(["theme.font"])
    expect(checkErrorReference(addRowAfter(ERRORS, "| `RateLimited` |", "| `TooSlow` | a | b | c |")).unknown).toEqual(["TooSlow"])
    expect(checkErrorReference(addRowAfter(ERRORS, "| `RateLimited` |", "| `RateLimited` | a | b | c |")).duplicates).toEqual(["RateLimited"])
    expect(checkWarnings(addRowAfter(OBSERVABILITY, "| `csrf-disabled` |", "| `made-up-warning` | a | b |")).unknown).toEqual(["made-up-warning"])
  })

  test("an audit record type missing from the docs, or one the code does not have", () => {
    expect(checkAuditTypes(dropRow(AUDIT, "| `two_factor.challenge` |")).undocumented).toEqual(["two_factor.challenge"])
    expect(checkAuditTypes(addRowAfter(AUDIT, "| `password.reset` |", "| `password.forgotten` | a | |")).unknown).toEqual(["password.forgotten"])
    expect(checkAuditTypes(addRowAfter(AUDIT, "| `password.reset` |", "| `password.reset` | a | |")).duplicates).toEqual(["password.reset"])
  })
})
