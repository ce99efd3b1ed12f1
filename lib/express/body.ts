/**
 * The request body for Gatehouse's POSTs, whether or not the app mounted its own parsers.
 * If a parser already consumed the stream, its result is used (an object as is, when the
 * Content-Type is one Gatehouse reads itself; a string or Buffer from a text/raw parser is parsed
 * here). Otherwise the body is read within the limit and parsed like the web path (core/body.ts):
 * strings and arrays of strings, never nested objects.
 */
import getRawBody from "raw-body"
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from "../errors.js"
import { BODY_LIMIT_BYTES } from "../core/config/defaults.js"
import { bodyKind, formToObject, parseJsonBody } from "../core/body.js"
import type { GatehouseRequest } from "./types.js"

const decoder = new TextDecoder("utf-8", { fatal: true })

function hasBody(req: GatehouseRequest): boolean {
  const length = req.headers["content-length"]
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) > 0)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
}

function parseText(req: GatehouseRequest, text: string): Record<string, unknown> {
  const kind = bodyKind(req.headers["content-type"], text.length > 0)
  if (kind === "empty") return {}
  return kind === "form" ? formToObject(new URLSearchParams(text)) : parseJsonBody(text)
}

function decode(buffer: Buffer): string {
  try {
    return decoder.decode(buffer)
  } catch {
    throw new InvalidRequest("The request body is not valid UTF-8")
  }
}

export async function readExpressBody(req: GatehouseRequest): Promise<Record<string, unknown>> {
  const existing = req.body
  const consumed = req.readableEnded || (req as { _body?: boolean })._body === true
  if (consumed) {
    // The app's parser read it first: accept the same content types as when Gatehouse reads it
    // (a catch-all parser must not make a text/plain or multipart body count as a form).
    if (isPlainObject(existing)) return bodyKind(req.headers["content-type"], hasBody(req)) === "empty" ? {} : existing
    if (typeof existing === "string") return parseText(req, existing)
    if (Buffer.isBuffer(existing)) return parseText(req, decode(existing))
    return {}
  }
  const encoding = req.headers["content-encoding"]
  if (encoding && encoding.toLowerCase() !== "identity") throw new UnsupportedMediaType("Compressed request bodies are not accepted")
  const kind = bodyKind(req.headers["content-type"], hasBody(req))
  if (kind === "empty") return {}
  let buffer: Buffer
  try {
    buffer = await getRawBody(req, { length: req.headers["content-length"], limit: BODY_LIMIT_BYTES })
  } catch (error) {
    const type = (error as { type?: string }).type
    if (type === "entity.too.large") throw new PayloadTooLarge(`Request bodies are limited to ${BODY_LIMIT_BYTES} bytes`)
    throw new InvalidRequest("The request body could not be read", { cause: { err: error } })
  }
  const text = decode(buffer)
  return kind === "form" ? formToObject(new URLSearchParams(text)) : parseJsonBody(text)
}
