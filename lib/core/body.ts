/**
 * Request bodies Gatehouse reads: `application/x-www-form-urlencoded` and `application/json`, in
 * UTF-8, uncompressed, at most BODY_LIMIT_BYTES. Anything else is refused with a named error
 * before it is parsed. `text/plain` is never read as a form: it is a CORS "simple" type, so
 * parsing it would let other sites post forms that skip the preflight.
 */
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from "../errors.js"
import { BODY_LIMIT_BYTES, BODY_PARAMETER_LIMIT } from "./config/defaults.js"

export type BodyKind = "form" | "json" | "empty"

/** Which parser a Content-Type calls for; throws for types and charsets Gatehouse does not read. */
export function bodyKind(contentType: string | undefined, hasBody: boolean): BodyKind {
  if (!contentType) {
    if (hasBody) throw new UnsupportedMediaType("A request body needs a Content-Type")
    return "empty"
  }
  const [type = "", ...params] = contentType.split(";").map((part) => part.trim().toLowerCase())
  const charset = params.find((param) => param.startsWith("charset="))?.slice(8).replace(/"/g, "")
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new UnsupportedMediaType(`Bodies must be UTF-8 (got charset ${charset})`)
  }
  if (type === "application/x-www-form-urlencoded") return "form"
  if (type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"))) return "json"
  if (!hasBody) return "empty"
  throw new UnsupportedMediaType(`Content-Type ${type} is not accepted`)
}

/** A form as an object: one string per field, an array of strings for a repeated field. */
export function formToObject(params: URLSearchParams): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  let count = 0
  for (const [key, value] of params) {
    if (++count > BODY_PARAMETER_LIMIT) throw new PayloadTooLarge(`Forms are limited to ${BODY_PARAMETER_LIMIT} fields`)
    if (key === "__proto__") continue
    const previous = result[key]
    if (previous === undefined) result[key] = value
    else if (Array.isArray(previous)) previous.push(value)
    else result[key] = [previous, value]
  }
  return result
}

export function parseJsonBody(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new InvalidRequest("The JSON body is malformed")
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new InvalidRequest("The JSON body must be an object")
  return value as Record<string, unknown>
}

const decoder = new TextDecoder("utf-8", { fatal: true })

/** Reads a web Request's body within the limit and parses it. */
export async function readWebBody(request: Request): Promise<Record<string, unknown>> {
  const encoding = request.headers.get("content-encoding")
  if (encoding && encoding.toLowerCase() !== "identity") throw new UnsupportedMediaType("Compressed request bodies are not accepted")
  const declared = Number(request.headers.get("content-length") ?? NaN)
  if (declared > BODY_LIMIT_BYTES) throw new PayloadTooLarge(`Request bodies are limited to ${BODY_LIMIT_BYTES} bytes`)
  const kind = bodyKind(request.headers.get("content-type") ?? undefined, request.body !== null)
  if (kind === "empty" || !request.body) return {}
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > BODY_LIMIT_BYTES) {
      await reader.cancel()
      throw new PayloadTooLarge(`Request bodies are limited to ${BODY_LIMIT_BYTES} bytes`)
    }
    chunks.push(value)
  }
  let text: string
  try {
    text = decoder.decode(Buffer.concat(chunks))
  } catch {
    throw new InvalidRequest("The request body is not valid UTF-8")
  }
  return kind === "form" ? formToObject(new URLSearchParams(text)) : parseJsonBody(text)
}
