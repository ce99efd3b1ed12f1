/**
 * Form-action handlers for apps that post their own sign-in and sign-out forms. They validate the
 * form first and return `{ failed: true, fieldErrors, formErrors }` for bad input (nothing is
 * written to `res`); otherwise they call `signIn`/`signOut` (which redirect) and return
 * `{ failed: undefined }`. A failed sign-in throws its `AuthError`, as the spec's form actions do.
 */
import type { AuthConfigInput } from "../types.js"
import { resolveFor } from "./config.js"
import { readExpressBody } from "./body.js"
import { signOut, startSignIn, type AuthorizationParams } from "./server-actions.js"
import type { GatehouseRequest, GatehouseResponse } from "./types.js"

export interface FormActionFailure {
  failed: true
  fieldErrors: Record<string, string[]>
  formErrors: string[]
}

export type FormActionResult = FormActionFailure | { failed: undefined }

const RESERVED = new Set(["providerId", "redirectTo", "options", "authorizationParams", "csrfToken"])

function failure(fieldErrors: Record<string, string[]>, formErrors: string[] = []): FormActionFailure {
  return { failed: true, fieldErrors, formErrors }
}

async function formBody(req: GatehouseRequest): Promise<{ body: Record<string, unknown> } | { failure: FormActionFailure }> {
  try {
    return { body: await readExpressBody(req) }
  } catch (error) {
    return { failure: failure({}, [(error as Error).message]) }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

export async function signInAction(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput): Promise<FormActionResult> {
  const read = await formBody(req)
  if ("failure" in read) return read.failure
  const body = read.body
  const resolved = await resolveFor(req, config)
  const fieldErrors: Record<string, string[]> = {}
  const { providerId, redirectTo, options, authorizationParams } = body
  if (providerId !== undefined && typeof providerId !== "string") fieldErrors.providerId = ["Must be a provider id"]
  else if (typeof providerId === "string" && !resolved.providers.byId.has(providerId)) fieldErrors.providerId = ["No provider has this id"]
  if (redirectTo !== undefined && typeof redirectTo !== "string") fieldErrors.redirectTo = ["Must be a path or URL"]
  if (options !== undefined && !isRecord(options)) fieldErrors.options = ["Must be an object"]
  if (authorizationParams !== undefined && typeof authorizationParams !== "string" && !isRecord(authorizationParams)) {
    fieldErrors.authorizationParams = ["Must be a query string or an object"]
  }
  if (Object.keys(fieldErrors).length) return failure(fieldErrors)
  // From a flat HTML form, every other field (the credentials) is an option.
  const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED.has(key)))
  const merged = { ...rest, ...(options as Record<string, unknown> | undefined) }
  if (typeof redirectTo === "string") merged.redirectTo = redirectTo
  // The form was posted by the browser: its authorizationParams are a request's, not the app's.
  await startSignIn(req, res, resolved.source as AuthConfigInput, providerId as string | undefined, merged, authorizationParams as AuthorizationParams | undefined, false)
  return { failed: undefined }
}

export async function signOutAction(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput): Promise<FormActionResult> {
  const read = await formBody(req)
  if ("failure" in read) return read.failure
  const { redirectTo } = read.body
  if (redirectTo !== undefined && typeof redirectTo !== "string") return failure({ redirectTo: ["Must be a path or URL"] })
  await signOut(req, res, config, { redirectTo: redirectTo as string | undefined })
  return { failed: undefined }
}
