/**
 * SCIM's answers (RFC 7644 §3.1, §3.12): every body as `application/scim+json`, errors included
 * (`problemBody`), with the headers a refusal carries (`WWW-Authenticate`, `Retry-After`). The body
 * is serialized here: the integrations write a string body as is under a non-JSON content type.
 */
import type { ResponseInternal } from "../types.js"
import { serializeJson } from "../core/response.js"
import { ScimProblem, problemBody, type ScimType } from "./problem.js"

export const SCIM_CONTENT_TYPE = "application/scim+json; charset=utf-8"

/** A SCIM error that carries headers of its own (401's challenge, 429's and 503's Retry-After). */
export class ScimRefusal extends ScimProblem {
  readonly headers: Record<string, string>
  constructor(status: number, detail: string, headers: Record<string, string>, scimType?: ScimType) {
    super(status, detail, scimType)
    this.headers = headers
  }
}

export function scimResponse(body: unknown, status = 200, headers?: Record<string, string>): ResponseInternal<string> {
  return { status, body: serializeJson(body), headers: { "Content-Type": SCIM_CONTENT_TYPE, ...headers } }
}

/** 204: no body. */
export function scimNoContent(): ResponseInternal<string> {
  return { status: 204, body: "", headers: { "Content-Type": SCIM_CONTENT_TYPE } }
}

export function problemResponse(problem: ScimProblem): ResponseInternal<string> {
  return scimResponse(problemBody(problem), problem.status, problem instanceof ScimRefusal ? problem.headers : undefined)
}
