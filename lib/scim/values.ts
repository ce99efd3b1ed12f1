/**
 * Small checks the SCIM resources share: a body's shape (nesting depth, no keys that reach an
 * object's prototype), attribute names compared case-insensitively (RFC 7643 §2.1), and the
 * dialects' string booleans (Entra sends `"active": "False"`).
 */
import { ScimProblem } from "./problem.js"

export const MAX_JSON_DEPTH = 32
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"])

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** Refuses a body nested deeper than MAX_JSON_DEPTH or naming a prototype key anywhere (iterative: no deep recursion). */
export function checkShape(body: unknown): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: body, depth: 0 }]
  while (stack.length) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number }
    if (typeof value !== "object" || value === null) continue
    if (depth > MAX_JSON_DEPTH) throw new ScimProblem(400, `The body is nested deeper than ${MAX_JSON_DEPTH} levels`, "invalidSyntax")
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) throw new ScimProblem(400, `"${key}" is not an attribute name`, "invalidSyntax")
      stack.push({ value: item, depth: depth + 1 })
    }
  }
}

/** A path segment or key that must never be followed (it reaches an object's prototype). */
export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key)
}

/** `true`/`false`, or their strings in any case ("False"); anything else: undefined. */
export function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value
  if (typeof value === "string") {
    const lowered = value.trim().toLowerCase()
    if (lowered === "true") return true
    if (lowered === "false") return false
  }
  return undefined
}

/** Looks `name` up among `canonical` names, case-insensitively; undefined when none matches. */
export function canonicalName(name: string, canonical: ReadonlyMap<string, string>): string | undefined {
  return canonical.get(name.toLowerCase())
}

export function nameMap(names: readonly string[]): ReadonlyMap<string, string> {
  return new Map(names.map((name) => [name.toLowerCase(), name]))
}

/** A resource's `meta.version`: a weak ETag of its last change. */
export function versionOf(updatedAt: Date): string {
  return `W/"${new Date(updatedAt).getTime()}"`
}

/**
 * A resource's attributes and their sub-attributes (null: a simple attribute, no sub-attributes),
 * in canonical case; an extension's attributes under its URN.
 */
export interface AttributeTree {
  readonly [name: string]: AttributeTree | null
}

const EXTENSION_URN = /^urn:[a-z0-9][a-z0-9-]{0,31}:[\x21-\x7e]+$/i

/**
 * `segments` (`["name", "givenName"]`, `[<urn>, "department"]`) in canonical case, or undefined
 * when the resource has no such attribute. An extension the tree does not know (a URN) takes any
 * attribute, as sent.
 */
export function resolveAttributePath(tree: AttributeTree, segments: readonly string[], coreSchema: string): string[] | undefined {
  const [first, ...rest] = segments
  if (first === undefined || isForbiddenKey(first)) return undefined
  const top = Object.keys(tree).find((name) => name.toLowerCase() === first.toLowerCase())
  if (top === undefined) {
    if (!EXTENSION_URN.test(first) || first.toLowerCase() === coreSchema.toLowerCase()) return undefined
    return rest.some((segment) => isForbiddenKey(segment) || !/^[A-Za-z$][\w$-]*$/.test(segment)) ? undefined : [first, ...rest]
  }
  const result = [top]
  let node = tree[top] ?? null
  for (const segment of rest) {
    if (!node) return undefined
    const name = Object.keys(node).find((key) => key.toLowerCase() === segment.toLowerCase())
    if (name === undefined) return undefined
    result.push(name)
    node = node[name] ?? null
  }
  return result
}
