/* Gatehouse passkey sign-in: the built-in page's forms (data-gatehouse-webauthn). Served by the
 * router after @simplewebauthn/browser's bundle, as one same-origin script (no inline script). */
;(function () {
  "use strict"
  var lib = window.SimpleWebAuthnBrowser

  function show(form, message) {
    var banner = form.querySelector(".error")
    if (!banner) {
      banner = document.createElement("p")
      banner.className = "error"
      banner.setAttribute("role", "alert")
      form.insertBefore(banner, form.firstChild)
    }
    banner.textContent = message
  }

  // Each options answer sets the challenge cookie; a ceremony waits for the one in flight so that
  // its own challenge is the cookie's when it posts.
  var inFlight = Promise.resolve()

  function options(form, query) {
    var url = form.getAttribute("data-options") + (query ? "?" + query : "")
    var request = inFlight.then(function () {
      return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
    }).then(function (response) {
      if (!response.ok) throw new Error("options " + response.status)
      return response.json()
    })
    inFlight = request.catch(function () {})
    return request
  }

  function finish(form, action, response) {
    form.querySelector('input[name="action"]').value = action
    form.querySelector('input[name="data"]').value = JSON.stringify(response)
    HTMLFormElement.prototype.submit.call(form)
  }

  function ceremony(form, query, autofill) {
    return options(form, query).then(function (answer) {
      if (answer.action === "register") {
        return lib.startRegistration({ optionsJSON: answer.options }).then(function (response) {
          finish(form, "register", response)
        })
      }
      return lib.startAuthentication({ optionsJSON: answer.options, useBrowserAutofill: autofill }).then(function (response) {
        finish(form, "authenticate", response)
      })
    })
  }

  // What the form asks the options endpoint for: its ceremony (data-action: "authenticate" signs
  // in with any passkey of this site, no address asked; "register" creates one) and, on a form
  // that creates a passkey for a new account, the address typed there.
  function queryOf(form) {
    var parts = []
    var action = form.getAttribute("data-action")
    if (action) parts.push("action=" + encodeURIComponent(action))
    var email = form.querySelector('input[name="email"]')
    if (email && email.value) parts.push("email=" + encodeURIComponent(email.value))
    return parts.join("&")
  }

  // Passkeys offered in the autofill of the page's field marked "webauthn" (the email field),
  // while the page is open.
  function autofill(form) {
    if (form.getAttribute("data-conditional") !== "true") return
    if (!document.querySelector('input[autocomplete~="webauthn"]')) return
    lib.browserSupportsWebAuthnAutofill().then(function (supported) {
      if (supported) ceremony(form, "action=authenticate", true).catch(function () {})
    })
  }

  function attach(form) {
    if (!lib || !lib.browserSupportsWebAuthn()) {
      show(form, form.getAttribute("data-unsupported") || "This browser does not support passkeys.")
      return
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault()
      ceremony(form, queryOf(form), false).catch(function (error) {
        // Another ceremony took over: it reports for itself.
        if (error && error.name === "AbortError") return
        show(form, form.getAttribute("data-failed") || "The passkey sign-in did not complete. Please try again.")
        // Starting this ceremony cancelled the autofill one: offer passkeys there again.
        autofill(form)
      })
    })
    autofill(form)
  }

  document.querySelectorAll("form[data-gatehouse-webauthn]").forEach(attach)
})()
