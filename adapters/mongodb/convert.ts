/**
 * Documents to adapter records and back, as pure functions (no server needed to test them).
 *
 * MongoDB ids are ObjectIds: a user's `_id` is an ObjectId, and so is the `userId` of its
 * accounts, sessions and authenticators. Adapter records carry them as strings, in the one
 * canonical form `ObjectId#toHexString()` produces: 24 lowercase hex characters. So an id
 * string maps to exactly one ObjectId and back, and id comparisons stay exact. Any other string
 * (a UUID, uppercase hex, 12 characters) is not an id here: converting it throws a TypeError
 * naming it. It is never replaced by a freshly generated ObjectId (the way a lookup for a
 * malformed id would silently "find nothing" while hiding a bug).
 */
import { ObjectId, type Document } from "mongodb"
import type { AdapterUser } from "../../lib/adapters.js"

const OBJECT_ID_HEX = /^[0-9a-f]{24}$/

/** True for an id string in the canonical ObjectId form (24 lowercase hex characters). */
export function isObjectIdHex(value: unknown): value is string {
  return typeof value === "string" && OBJECT_ID_HEX.test(value)
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : `a value of type ${value === null ? "null" : typeof value}`
}

/** The ObjectId an id string stands for; a TypeError naming the value when it is not one. */
export function toObjectId(id: unknown): ObjectId {
  if (!isObjectIdHex(id)) {
    throw new TypeError(`MongoDBAdapter: ${describeValue(id)} is not a MongoDB ObjectId id (24 lowercase hex characters)`)
  }
  return new ObjectId(id)
}

/**
 * A lookup key (token, email, provider, credential id...) checked to be a string, so a value
 * that is not one can never reach a filter as an operator object such as `{ $ne: null }`.
 */
export function key(value: unknown, name: string): string {
  if (typeof value !== "string") throw new TypeError(`MongoDBAdapter: ${name} must be a string (got ${describeValue(value)})`)
  return value
}

function isObjectId(value: unknown): value is ObjectId {
  if (value instanceof ObjectId) return true
  // An ObjectId from another copy of the bson package is not `instanceof` this one.
  return typeof value === "object" && value !== null && (value as { _bsontype?: unknown })._bsontype === "ObjectId"
}

function idString(value: unknown): string {
  return isObjectId(value) ? value.toHexString() : String(value)
}

/**
 * A stored document as an adapter record: `_id` becomes `id` (hex string), an ObjectId `userId`
 * becomes its hex string; every other field is kept as stored (Dates stay Dates, nested objects
 * and arrays are the same values, untouched).
 */
export function from<T = Record<string, unknown>>(document: Document): T {
  const record: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(document)) {
    if (field === "_id") record.id = idString(value)
    else if (field === "userId" && value !== null && value !== undefined) record.userId = idString(value)
    else record[field] = value
  }
  return record as T
}

/**
 * A stored document as an adapter record without any `id`: accounts, sessions, verification
 * tokens and authenticators are known by other fields, and their `_id` is MongoDB's own.
 */
export function fromRecord<T = Record<string, unknown>>(document: Document): T {
  const { _id: _ignored, ...rest } = document
  return from<T>(rest)
}

/** A stored user: `from()`, with `email` "" when none is stored and `emailVerified` null when unset. */
export function fromUser(document: Document): AdapterUser {
  const user = from<AdapterUser>(document)
  return { ...user, email: typeof user.email === "string" ? user.email : "", emailVerified: user.emailVerified ?? null }
}

/**
 * An adapter record as a document to store: `id` becomes `_id` (ObjectId), `userId` becomes an
 * ObjectId; both throw a TypeError when not an ObjectId id. Fields that are `undefined` are left
 * out (the driver would store them as null); a stray `_id` is ignored (ids come only from `id`);
 * every other field is kept as is, nested values untouched.
 */
export function to(record: Record<string, unknown>): Document {
  const document: Document = {}
  if (record.id !== undefined) document._id = toObjectId(record.id)
  for (const [field, value] of Object.entries(record)) {
    if (value === undefined || field === "id" || field === "_id") continue
    document[field] = field === "userId" ? toObjectId(value) : value
  }
  return document
}

/** `from` and `to` together, as Auth.js's MongoDB adapter exports them. */
export const format = { from, to }
