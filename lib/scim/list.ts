/**
 * Listing Users and Groups (RFC 7644 §3.4.2): `filter` (parsed by scim2-parse-filter and matched
 * by its predicate; attribute names case-insensitive, values too except for case-exact attributes
 * such as `id` and `externalId`), `startIndex` (1-based), `count` (capped at `scim.maxResults`),
 * `sortBy`/`sortOrder`, and `attributes`/`excludedAttributes` (also for a single resource). A
 * filter longer than 1000 characters, nested deeper than 8, holding control characters (they
 * make the parser's tokenizer backtrack) or not parsing is `invalidFilter`.
 */
import { filter as predicateOf, parse, type Filter } from "scim2-parse-filter"
import { ScimProblem } from "./problem.js"
import { isPlainObject } from "./values.js"

export const LIST_RESPONSE_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
export const MAX_FILTER_LENGTH = 1000
export const MAX_FILTER_DEPTH = 8

/** Attributes compared as sent (RFC 7643 `caseExact`): ids. Everything else is compared case-insensitively. */
const CASE_EXACT = new Set(["id", "externalid", "members.value", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:user.manager.value"])
const CORE_PREFIXES = ["urn:ietf:params:scim:schemas:core:2.0:user:", "urn:ietf:params:scim:schemas:core:2.0:group:"]

export interface ListQuery {
  match?: (resource: Record<string, unknown>) => boolean
  startIndex: number
  count: number
  sortBy?: string
  descending: boolean
  attributes?: string[]
  excludedAttributes?: string[]
}

/**
 * An attribute path as compared here: lower case, the core schema's URN dropped, an extension's URN
 * joined to its attribute with a dot (`urn:...:enterprise:2.0:user.department`).
 */
export function normalPath(path: string): string {
  const lowered = filterPath(path)
  const colon = lowered.lastIndexOf(":")
  return colon === -1 ? lowered : `${lowered.slice(0, colon)}.${lowered.slice(colon + 1)}`
}

/** A filter's attribute path as the parser's predicate reads it: lower case, the core schema's URN dropped. */
function filterPath(path: string): string {
  const lowered = path.toLowerCase()
  const prefix = CORE_PREFIXES.find((core) => lowered.startsWith(core))
  return prefix ? lowered.slice(prefix.length) : lowered
}

/** The resource with every value that is not case-exact lower-cased, and its keys lower-cased (what filters and sorting read). */
function comparable(value: unknown, path: string): unknown {
  if (typeof value === "string") return CASE_EXACT.has(path) ? value : value.toLowerCase()
  if (Array.isArray(value)) return value.map((item) => comparable(item, path))
  if (!isPlainObject(value)) return value
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const name = key.toLowerCase()
    result[name] = comparable(item, path ? `${path}.${name}` : name)
  }
  return result
}

function depthOf(node: Filter): number {
  switch (node.op) {
    case "and":
    case "or":
      return 1 + Math.max(0, ...node.filters.map(depthOf))
    case "not":
      return 1 + depthOf(node.filter)
    case "[]":
      return 1 + depthOf(node.valFilter)
    default:
      return 0
  }
}

/** The AST with paths as the comparable view has them and values lower-cased unless case-exact. */
function rewrite(node: Filter, parent: string): Filter {
  switch (node.op) {
    case "and":
    case "or":
      return { op: node.op, filters: node.filters.map((child) => rewrite(child, parent)) }
    case "not":
      return { op: "not", filter: rewrite(node.filter, parent) }
    case "[]": {
      const path = normalPath(node.attrPath)
      return { op: "[]", attrPath: filterPath(node.attrPath), valFilter: rewrite(node.valFilter, parent ? `${parent}.${path}` : path) }
    }
    case "pr":
      return { op: "pr", attrPath: filterPath(node.attrPath) }
    default: {
      const path = normalPath(node.attrPath)
      const full = parent ? `${parent}.${path}` : path
      const value = typeof node.compValue === "string" && !CASE_EXACT.has(full) ? node.compValue.toLowerCase() : node.compValue
      return { op: node.op, attrPath: filterPath(node.attrPath), compValue: value }
    }
  }
}

function badFilter(detail: string): ScimProblem {
  return new ScimProblem(400, detail, "invalidFilter")
}

/** Brackets nested in the text (outside quoted strings): refused before the parser recurses. */
function bracketDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === "\\") i++
      else if (c === '"') quoted = false
    } else if (c === '"') quoted = true
    else if (c === "(" || c === "[") deepest = Math.max(deepest, ++depth)
    else if (c === ")" || c === "]") depth--
  }
  return deepest
}

/** Parses a SCIM filter (also a PATCH path's value filter) within the limits; invalidFilter otherwise. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw badFilter(`A filter is limited to ${MAX_FILTER_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) throw badFilter("A filter cannot hold control characters")
  if (bracketDepth(text) > MAX_FILTER_DEPTH) throw badFilter(`A filter is limited to ${MAX_FILTER_DEPTH} levels of nesting`)
  let ast: Filter
  try {
    ast = parse(text)
  } catch {
    throw badFilter("The filter does not parse")
  }
  if (depthOf(ast) > MAX_FILTER_DEPTH) throw badFilter(`A filter is limited to ${MAX_FILTER_DEPTH} levels of nesting`)
  return ast
}

/** The predicate of a filter over resources in their SCIM form. */
export function matcherOf(text: string): (resource: Record<string, unknown>) => boolean {
  const test = predicateOf(rewrite(parseFilter(text), ""))
  return (resource) => test(comparable(resource, ""))
}

function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name)
  if (values.length > 1) throw new ScimProblem(400, `${name} is given more than once`, "invalidValue")
  return values[0]
}

function integer(query: URLSearchParams, name: string): number | undefined {
  const value = single(query, name)
  if (value === undefined || value === "") return undefined
  if (!/^-?\d{1,9}$/.test(value.trim())) throw new ScimProblem(400, `${name} must be an integer`, "invalidValue")
  return Number(value.trim())
}

function names(value: string | undefined): string[] | undefined {
  const list = value
    ?.split(",")
    .map((name) => name.trim())
    .filter(Boolean)
  if (list && list.some((name) => name.length > 200)) throw new ScimProblem(400, "Attribute names are at most 200 characters", "invalidValue")
  return list?.length ? list.slice(0, 100).map(normalPath) : undefined
}

/** The projection parameters alone (a single resource's GET, POST, PUT, PATCH). */
export function projectionOf(query: URLSearchParams): Pick<ListQuery, "attributes" | "excludedAttributes"> {
  return { attributes: names(single(query, "attributes")), excludedAttributes: names(single(query, "excludedAttributes")) }
}

export function parseListQuery(query: URLSearchParams, maxResults: number): ListQuery {
  const filterText = single(query, "filter")
  const startIndex = Math.max(1, integer(query, "startIndex") ?? 1)
  const count = Math.min(maxResults, Math.max(0, integer(query, "count") ?? maxResults))
  const sortBy = single(query, "sortBy")
  const sortOrder = single(query, "sortOrder")?.toLowerCase()
  if (sortOrder !== undefined && sortOrder !== "ascending" && sortOrder !== "descending") throw new ScimProblem(400, "sortOrder must be ascending or descending", "invalidValue")
  if (sortBy !== undefined && sortBy.length > 200) throw new ScimProblem(400, "sortBy is at most 200 characters", "invalidValue")
  return {
    ...(filterText !== undefined && { match: matcherOf(filterText) }),
    startIndex,
    count,
    ...(sortBy && { sortBy: normalPath(sortBy) }),
    descending: sortOrder === "descending",
    ...projectionOf(query),
  }
}

/** The value a sort reads: along the path; of a multi-valued attribute its primary value, else the first. */
function sortValue(view: unknown, path: string): unknown {
  let value: unknown = view
  for (const segment of splitPath(path)) {
    if (Array.isArray(value)) value = value.find((item) => isPlainObject(item) && item.primary === true) ?? value[0]
    value = isPlainObject(value) ? value[segment] : undefined
  }
  if (Array.isArray(value)) value = value.find((item) => isPlainObject(item) && item.primary === true) ?? value[0]
  if (isPlainObject(value)) value = value.value
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : undefined
}

/** `a.b.c` into segments; an extension's URN (`urn:...:user.department`) stays one segment. */
function splitPath(path: string): string[] {
  const colon = path.lastIndexOf(":")
  if (colon === -1) return path.split(".")
  const dot = path.indexOf(".", colon)
  return dot === -1 ? [path] : [path.slice(0, dot), ...path.slice(dot + 1).split(".")]
}

function compare(a: unknown, b: unknown): number {
  // Resources without the value come last, whatever the order (RFC 7644 §3.4.2.3).
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1
  return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0
}

/** Keeps only the asked-for attributes (plus `schemas` and `id`), or drops the excluded ones. */
export function project(resource: Record<string, unknown>, query: Pick<ListQuery, "attributes" | "excludedAttributes">): Record<string, unknown> {
  if (!query.attributes && !query.excludedAttributes) return resource
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(resource)) {
    const name = key.toLowerCase()
    if (name === "schemas" || name === "id") {
      result[key] = value
      continue
    }
    if (query.attributes) {
      if (query.attributes.includes(name)) result[key] = value
      else {
        const subs = query.attributes.filter((path) => path.startsWith(`${name}.`)).map((path) => path.slice(name.length + 1))
        if (subs.length) result[key] = pick(value, subs, true)
      }
    } else if (!query.excludedAttributes?.includes(name)) {
      const subs = (query.excludedAttributes ?? []).filter((path) => path.startsWith(`${name}.`)).map((path) => path.slice(name.length + 1))
      result[key] = subs.length ? pick(value, subs, false) : value
    }
  }
  return result
}

/** Sub-attributes of an object (or of each object of an array): kept (`keep`) or dropped. */
function pick(value: unknown, subs: string[], keep: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => pick(item, subs, keep))
  if (!isPlainObject(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => subs.includes(key.toLowerCase()) === keep))
}

/** The ListResponse of `resources` (SCIM forms, oldest first) for `query`. */
export function listResponse(resources: Array<Record<string, unknown>>, query: ListQuery): Record<string, unknown> {
  let selected = query.match ? resources.filter(query.match) : resources
  if (query.sortBy) {
    const path = query.sortBy
    const keyed = selected.map((resource) => ({ resource, key: sortValue(comparable(resource, ""), path) }))
    keyed.sort((a, b) => {
      if (a.key === undefined || b.key === undefined) return compare(a.key, b.key)
      return query.descending ? compare(b.key, a.key) : compare(a.key, b.key)
    })
    selected = keyed.map((entry) => entry.resource)
  }
  const page = selected.slice(query.startIndex - 1, query.startIndex - 1 + query.count)
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: selected.length,
    itemsPerPage: page.length,
    startIndex: query.startIndex,
    Resources: page.map((resource) => project(resource, query)),
  }
}
