/**
 * A SCIM error (RFC 7644 §3.12): the HTTP status, SCIM's `scimType` where one applies
 * (`invalidFilter`, `invalidSyntax`, `invalidPath`, `invalidValue`, `uniqueness`, `mutability`,
 * `noTarget`, `tooMany`, `invalidVers`, `sensitive`), and a detail safe to show the directory.
 * Thrown by the SCIM code and answered by the protocol handler in SCIM's format; never an
 * AuthError outcome, never a 500 for bad input.
 */
export type ScimType = "invalidFilter" | "tooMany" | "uniqueness" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue" | "invalidVers" | "sensitive"

export class ScimProblem extends Error {
  readonly status: number
  readonly scimType?: ScimType
  constructor(status: number, detail: string, scimType?: ScimType) {
    super(detail)
    this.name = "ScimProblem"
    this.status = status
    this.scimType = scimType
  }
}

export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error"

/** The body of a SCIM error answer. */
export function problemBody(problem: ScimProblem): Record<string, unknown> {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(problem.status), ...(problem.scimType && { scimType: problem.scimType }), detail: problem.message }
}
