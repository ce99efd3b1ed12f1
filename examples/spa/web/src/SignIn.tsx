// The sign-in page: a password form, an email-code form (ask for a code, then type it) and
// passkeys, offered both in the email fields' autofill (conditional UI) and by a button.
import { useEffect, useRef, useState, type FormEvent } from "react"
import { useAuthClient } from "gatehouse/react"
import { AuthClientError } from "gatehouse/client"
import type { ProviderId } from "./auth.js"
import { messageFor } from "./messages.js"

/**
 * A passkey request that ended because the page aborted it or the person closed the dialog, or
 * autofill the browser does not have: nothing to say.
 */
const quiet = (error: unknown) => error instanceof AuthClientError && (error.type === "PasskeyCancelled" || error.type === "PasskeyAutofillUnsupported")

export function SignIn() {
  const client = useAuthClient<ProviderId>()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const conditional = useRef<AbortController | null>(null)

  // Conditional UI: while this page shows, the browser offers the site's passkeys in the autofill
  // of fields marked autocomplete="username webauthn"; picking one signs in (the status changes,
  // RequireAuth shows the home page). Aborted when the page goes or another ceremony starts.
  useEffect(() => {
    if (!client.passkey.isSupported()) return
    const controller = new AbortController()
    conditional.current = controller
    client.passkey.signIn({ conditional: true, signal: controller.signal }).catch((failure: unknown) => {
      if (!controller.signal.aborted && !quiet(failure)) setError(messageFor(failure))
    })
    return () => controller.abort()
  }, [client])

  /** Runs one sign-in step, showing its error; the session's status moves the page on by itself. */
  async function run(step: () => Promise<unknown>) {
    setBusy(true)
    setError(undefined)
    try {
      await step()
    } catch (failure) {
      if (!quiet(failure)) setError(messageFor(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="stack">
      <h1>Sign in</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <PasswordForm busy={busy} onSubmit={(email, password) => run(() => client.signIn("password", { email, password }))} />
      <EmailCodeForm busy={busy} run={run} />
      {client.passkey.isSupported() && (
        <section className="card" aria-labelledby="passkey-heading">
          <h2 id="passkey-heading">Passkey</h2>
          <p>Pick your passkey from an email field's suggestions, or:</p>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() =>
              run(() => {
                conditional.current?.abort()
                return client.passkey.signIn()
              })
            }
          >
            Sign in with a passkey
          </button>
        </section>
      )}
      <p className="hint">
        Demo account: <strong>demo@example.com</strong> / <strong>demo-password</strong>. No account? <a href="/auth/signup">Create one</a>.
      </p>
    </div>
  )
}

function PasswordForm({ busy, onSubmit }: { busy: boolean; onSubmit: (email: string, password: string) => void }) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    onSubmit(String(form.get("email")), String(form.get("password")))
  }
  return (
    <form className="card" aria-labelledby="password-heading" onSubmit={submit}>
      <h2 id="password-heading">Email and password</h2>
      <label htmlFor="password-email">Email</label>
      <input id="password-email" name="email" type="email" autoComplete="username webauthn" required />
      <label htmlFor="password-password">Password</label>
      <input id="password-password" name="password" type="password" autoComplete="current-password" required />
      <button type="submit" disabled={busy}>
        Sign in
      </button>
    </form>
  )
}

/** Step one mails a code (signIn with the address); step two sends the address and the code typed. */
function EmailCodeForm({ busy, run }: { busy: boolean; run: (step: () => Promise<unknown>) => Promise<void> }) {
  const client = useAuthClient<ProviderId>()
  const [sentTo, setSentTo] = useState<string>()

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    if (sentTo === undefined) {
      const email = String(form.get("email"))
      void run(async () => {
        const result = await client.signIn("nodemailer", { email })
        if (result.status === "email-sent") setSentTo(email)
      })
    } else {
      void run(() => client.signIn("nodemailer", { email: sentTo, code: String(form.get("code")) }))
    }
  }

  return (
    <form className="card" aria-labelledby="code-heading" onSubmit={submit}>
      <h2 id="code-heading">Email code</h2>
      {sentTo === undefined ? (
        <>
          <label htmlFor="code-email">Email</label>
          <input id="code-email" name="email" type="email" autoComplete="username webauthn" required />
          <button type="submit" className="secondary" disabled={busy}>
            Email me a code
          </button>
        </>
      ) : (
        <>
          <p role="status">
            We sent a code to <strong>{sentTo}</strong>.
          </p>
          <label htmlFor="code-code">Code</label>
          <input id="code-code" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus />
          <div className="actions">
            <button type="submit" disabled={busy}>
              Sign in with the code
            </button>
            <button type="button" className="link" onClick={() => setSentTo(undefined)}>
              Use another address
            </button>
          </div>
        </>
      )}
    </form>
  )
}
