/**
 * PATCH (RFC 7644 §3.5.2) on a resource's SCIM form, applied by scim-patch; the result is then
 * checked and stored like a PUT (users.ts, group-resource.ts). The dialects are made one first: an `op` in
 * any case (Entra's "Replace"), string booleans (Entra's "False", normalised when the result is
 * read), attribute names in any case; Entra's removal of members by value
 * (`{ op: "Remove", path: "members", value: [{ value }] }`) becomes Okta's
 * (`members[value eq "..."]`), so members keep their `display` either way. A path naming no
 * attribute of the resource, or one that does not parse, is `invalidPath`; a change of `id` is
 * `mutability`.
 */
import { scimPatch, ScimError, NoTarget, type ScimPatchOperation, type ScimResource } from "scim-patch"
import { ScimProblem } from "./problem.js"
import { MAX_FILTER_LENGTH, parseFilter } from "./list.js"
import { isPlainObject } from "./values.js"

export const PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
const MAX_OPERATIONS = 1000
const OPS = new Set(["add", "remove", "replace"])

/** A path's segments (`["name", "givenName"]`, `[<urn>, "manager", "value"]`) in canonical case, or undefined when the resource has no such attribute. */
export type PathResolver = ((segments: readonly string[]) => string[] | undefined) & {
  /** The extensions' URNs the resource knows (their attributes are checked). */
  readonly extensions: readonly string[]
}

type Operation = { op: "add" | "replace" | "remove"; path?: string; value?: unknown }

const READ_ONLY = new Set(["id", "meta", "schemas"])
const SUB_ATTRIBUTE = /^[A-Za-z$][\w$-]*$/

function invalidPath(detail: string): ScimProblem {
  return new ScimProblem(400, detail, "invalidPath")
}

/** `a.b` or `urn:...:a.b` as segments (the URN, when there is one, first). */
function segmentsOf(text: string): string[] {
  const colon = text.lastIndexOf(":")
  return colon === -1 ? text.split(".") : [text.slice(0, colon), ...text.slice(colon + 1).split(".")]
}

/** Canonical segments written back as a path scim-patch reads (`urn:...:a.b`). */
function written(segments: readonly string[], urn: boolean): string {
  return urn ? `${segments[0]}:${segments.slice(1).join(".")}` : segments.join(".")
}

/**
 * A path that names a whole extension (`urn:...:enterprise:2.0:User`, or another URN that is not a
 * known extension's attribute): its URN in canonical case.
 */
function wholeExtension(text: string, resolve: PathResolver): string | undefined {
  if (!text.toLowerCase().startsWith("urn:") || text.includes("[")) return undefined
  const known = resolve.extensions.find((urn) => urn.toLowerCase() === text.toLowerCase())
  if (known) return known
  const owner = segmentsOf(text)[0]?.toLowerCase()
  if (resolve.extensions.some((urn) => urn.toLowerCase() === owner)) return undefined
  const whole = resolve([text])
  return whole && whole.length === 1 ? whole[0] : undefined
}

/**
 * The path checked and written with canonical names: `attr[.sub]`, `attr[filter][.sub]`, an
 * extension's `urn:...:attr[.sub]`. Every name must be an attribute (or sub-attribute) of the
 * resource, and a filter in brackets must parse (list.ts); `id`, `meta` and `schemas` are read-only.
 */
function normalisePath(path: string, resolve: PathResolver): string {
  if (!path.trim() || path.length > MAX_FILTER_LENGTH) throw invalidPath("The path is empty or too long")
  const bracket = path.indexOf("[")
  const before = bracket === -1 ? path : path.slice(0, bracket)
  let filterPart = ""
  let sub: string | undefined
  if (bracket !== -1) {
    const match = /^\[(.+)\](?:\.([A-Za-z$][\w$-]*))?$/.exec(path.slice(bracket))
    if (!match) throw invalidPath(`${path.slice(0, 200)} is not a valid path`)
    try {
      parseFilter(match[1] as string)
    } catch {
      throw invalidPath(`The filter in the path (${(match[1] as string).slice(0, 200)}) is not valid`)
    }
    filterPart = `[${match[1]}]`
    sub = match[2]
  }
  const segments = segmentsOf(before)
  const urn = before.includes(":")
  if (segments.some((segment, index) => (index > 0 || !urn) && !SUB_ATTRIBUTE.test(segment))) throw invalidPath(`${path.slice(0, 200)} is not a valid path`)
  const resolved = resolve(sub === undefined ? segments : [...segments, sub])
  if (!resolved) throw invalidPath(`${path.slice(0, 200)} names no attribute of this resource`)
  if (READ_ONLY.has(resolved[0] as string)) throw new ScimProblem(400, `${resolved[0]} cannot be changed`, "mutability")
  const head = resolved.slice(0, segments.length)
  return `${written(head, urn)}${filterPart}${sub === undefined ? "" : `.${resolved[resolved.length - 1]}`}`
}

/** The attributes of an operation without a path, keyed by canonical paths; an extension's object split into its attributes. */
function valueOperations(op: "add" | "replace", value: Record<string, unknown>, resolve: PathResolver): Operation[] {
  const rest: Record<string, unknown> = {}
  const result: Operation[] = []
  for (const [key, item] of Object.entries(value)) {
    const extension = isPlainObject(item) ? wholeExtension(key, resolve) : undefined
    if (extension) {
      for (const [name, subValue] of Object.entries(item as Record<string, unknown>)) result.push({ op, path: normalisePath(`${extension}:${name}`, resolve), value: subValue })
      continue
    }
    const urn = key.includes(":")
    const segments = segmentsOf(key)
    const resolved = segments.some((segment, index) => (index > 0 || !urn) && !SUB_ATTRIBUTE.test(segment)) ? undefined : resolve(segments)
    if (!resolved) throw invalidPath(`${key.slice(0, 200)} names no attribute of this resource`)
    rest[written(resolved, urn)] = item
  }
  if (Object.keys(rest).length) result.unshift({ op, value: rest })
  return result
}

/** Operations in the form scim-patch applies; Entra's member removal by value as one filter path per member. */
function normaliseOperations(body: Record<string, unknown>, resolve: PathResolver): ScimPatchOperation[] {
  const schemas = body.schemas
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA)) throw new ScimProblem(400, `schemas must be ["${PATCH_OP_SCHEMA}"]`, "invalidSyntax")
  const operations = body.Operations ?? body.operations
  if (!Array.isArray(operations) || operations.length === 0) throw new ScimProblem(400, "Operations must be a non-empty array", "invalidSyntax")
  if (operations.length > MAX_OPERATIONS) throw new ScimProblem(400, `At most ${MAX_OPERATIONS} operations per request`, "invalidSyntax")
  const result: Operation[] = []
  for (const operation of operations) {
    if (!isPlainObject(operation)) throw new ScimProblem(400, "Each operation must be an object", "invalidSyntax")
    const op = typeof operation.op === "string" ? operation.op.toLowerCase() : ""
    if (!OPS.has(op)) throw new ScimProblem(400, `op must be add, remove or replace (got ${JSON.stringify(operation.op)?.slice(0, 50)})`, "invalidSyntax")
    const rawPath = operation.path
    if (rawPath !== undefined && rawPath !== null && typeof rawPath !== "string") throw invalidPath("path must be a string")
    const value = operation.value
    if (op === "remove" && typeof rawPath !== "string") throw new ScimProblem(400, "A remove operation needs a path", "noTarget")
    if (op !== "remove" && value === undefined) throw new ScimProblem(400, `The ${op} operation needs a value`, "invalidValue")
    if (typeof rawPath !== "string") {
      if (!isPlainObject(value)) throw new ScimProblem(400, `An ${op} operation without a path needs an object of attributes`, "invalidValue")
      result.push(...valueOperations(op as "add" | "replace", value, resolve))
      continue
    }
    // A whole extension as the path: one operation per attribute (scim-patch reads a URN's last part as an attribute).
    const extension = wholeExtension(rawPath, resolve)
    if (extension) {
      if (op === "remove") throw invalidPath("Remove the extension's attributes one by one")
      if (!isPlainObject(value)) throw new ScimProblem(400, `${extension} takes an object`, "invalidValue")
      result.push(...valueOperations(op as "add" | "replace", { [extension]: value }, resolve))
      continue
    }
    const path = normalisePath(rawPath, resolve)
    if (op === "remove" && path === "members" && value !== undefined) {
      const members = Array.isArray(value) ? value : [value]
      for (const member of members) {
        const id = isPlainObject(member) ? member.value : undefined
        if (typeof id !== "string" || !id) throw new ScimProblem(400, "Each member to remove needs a value (the user's id)", "invalidValue")
        result.push({ op: "remove", path: `members[value eq ${JSON.stringify(id)}]` })
      }
      continue
    }
    result.push(op === "remove" ? { op: "remove", path } : { op: op as "add" | "replace", path, value })
  }
  return result as ScimPatchOperation[]
}

/**
 * The resource (its SCIM form, unchanged) with the PATCH body applied; `attributeName` says which
 * attributes the resource has (users.ts `userPath`, group-resource.ts `groupPath`). ScimProblem for any bad operation.
 */
export function applyPatch(resource: Record<string, unknown>, body: Record<string, unknown>, resolve: PathResolver): Record<string, unknown> {
  const operations = normaliseOperations(body, resolve)
  let patched: Record<string, unknown>
  try {
    patched = scimPatch(resource as unknown as ScimResource, operations, { mutateDocument: false, treatMissingAsAdd: true }) as unknown as Record<string, unknown>
  } catch (error) {
    if (error instanceof NoTarget) throw new ScimProblem(400, "No value matched the path's filter", "noTarget")
    if (error instanceof ScimError) throw invalidPath(error.message.slice(0, 300))
    // A path through a value of another type (`name.givenName` where name is a string): bad input, not a fault.
    throw invalidPath("The path does not fit the resource")
  }
  if (patched.id !== resource.id) throw new ScimProblem(400, "id cannot be changed", "mutability")
  const { meta: _meta, ...rest } = patched
  void _meta
  return rest
}
