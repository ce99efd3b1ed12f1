/**
 * Password accounts as a capability (lib/core/capability.ts), for `gatehouse/providers/password`:
 * its pages, each answering GET (and HEAD) and its form's POST (CSRF-checked): `signup`,
 * `verify-email`, `forgot-password`, `reset-password`, `change-password`; with the outcomes of the
 * errors only they throw. The sign-in itself goes through the spec's `callback` action
 * (`actions/sign-in.ts`); the logic beside it in this folder (hashing, the policy, the links, the
 * mail, the options) is shared with the provider (lib/providers/password.ts).
 */
import { lazy, type Capability, type Handler, type Routes } from "../core/capability.js"
import { passwordTexts } from "./texts/index.js"
import type { TextsOf } from "../i18n/text-types.js"
import { PASSWORD_ADAPTER_METHODS } from "./adapter.js"
import { PASSWORD_AUDIT_TYPES } from "./audit.js"

declare module "../types.js" {
  interface CapabilityActions {
    signup: true
    "verify-email": true
    "forgot-password": true
    "reset-password": true
    "change-password": true
  }
  interface CapabilityPages {
    /** Password accounts (`gatehouse/providers/password`): the sign-up, verify-email, forgot-password, reset-password and change-password pages. */
    signUp?: string
    verifyEmail?: string
    forgotPassword?: string
    resetPassword?: string
    changePassword?: string
  }
}

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof passwordTexts.en> {}
}

const page = (get: Handler, post: Handler): Routes => ({ GET: { handler: get, head: true }, POST: { handler: post, csrf: true } })

// Its audit record types join `AuditType` from here (the list is in audit.ts).
declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof PASSWORD_AUDIT_TYPES)[number], true> {}
}

export const password: Capability = {
  name: "password",
  texts: passwordTexts,
  adapterMethods: PASSWORD_ADAPTER_METHODS,
  auditTypes: PASSWORD_AUDIT_TYPES,
  options: { pages: ["signUp", "verifyEmail", "forgotPassword", "resetPassword", "changePassword"] },
  routes: {
    signup: page(lazy(() => import("./actions/signup.js"), "signupGet"), lazy(() => import("./actions/signup.js"), "signupPost")),
    "verify-email": page(lazy(() => import("./actions/verify-email.js"), "verifyEmailGet"), lazy(() => import("./actions/verify-email.js"), "verifyEmailPost")),
    "forgot-password": page(lazy(() => import("./actions/forgot.js"), "forgotGet"), lazy(() => import("./actions/forgot.js"), "forgotPost")),
    "reset-password": page(lazy(() => import("./actions/reset.js"), "resetGet"), lazy(() => import("./actions/reset.js"), "resetPost")),
    "change-password": page(lazy(() => import("./actions/change.js"), "changeGet"), lazy(() => import("./actions/change.js"), "changePost")),
  },
  outcomes: {
    // The right password for an address never confirmed (thrown by the sign-in through `callback`).
    EmailNotVerified: { page: "signIn", status: 403 },
    // The pages show these in place; API clients get them as JSON (the page's words, but for the
    // policy's minimum, which the page fills in).
    WeakPassword: { status: 400, message: { text: "That password is too short or too common." } },
    PasswordTooLong: { status: 400, message: { key: "password.error.PasswordTooLong" } },
    BreachedPassword: { status: 400, message: { key: "password.error.BreachedPassword" } },
    PasswordLinkInvalid: { status: 400, message: { key: "password.error.PasswordLinkInvalid" } },
    PasswordLinkSuperseded: { status: 400 },
    WrongCurrentPassword: { status: 400, message: { key: "password.error.WrongCurrentPassword" } },
  },
}
