// Sign in with Google and with Apple, offered only when the server names their client ids (the page's meta tags,
// from POVVER_WEB_GOOGLE_CLIENT_ID / POVVER_WEB_APPLE_SERVICES_ID). The providers' own scripts are loaded on
// demand from the origins the Content Security Policy then allows. A new identity is confirmed before the account
// is made (docs/product.md "Sign-in with Google and Apple", 4), or cancelled.
import { call, forget, ApiError } from "../lib/api.js";
import { h, openDialog } from "../lib/dom.js";

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content || null;
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = resolve;
    script.onerror = () => reject(new ApiError("NETWORK", "The sign-in provider could not be reached. Please check your connection."));
    document.head.append(script);
  });
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** An existing account signs in; a new identity asks first, then confirms or cancels the account. */
async function finish(ctx, provider, body) {
  const answer = await call("signInWithIdp", { provider, ...body, time_zone: zone() }, { auth: false });
  if (answer.result === "new_user") {
    const email = answer.pending?.email || answer.user?.email;
    const create = await openDialog("Create your Povver account?", (close) => h("div", { class: "stack" },
      h("p", {}, `No Povver account uses ${email} yet. Create one with ${provider === "apple.com" ? "Apple" : "Google"}?`),
      h("div", { class: "row" },
        h("button", { class: "button primary", type: "button", onclick: () => close(true) }, "Create account"),
        h("button", { class: "button", type: "button", onclick: () => close(false) }, "Cancel"))));
    if (!create) {
      await call("cancelAccountCreation", {}).catch(() => {});
      forget();
      return;
    }
    await call("confirmAccountCreation", { time_zone: zone() });
  }
  await ctx.signedIn();
}

/** The provider buttons with their own error line, or null when the server offers none. */
export function ssoButtons(ctx) {
  const google = meta("povver-google-client-id");
  const apple = meta("povver-apple-services-id");
  if (!google && !apple) return null;
  const error = h("p", { class: "error-text", role: "alert" });
  const run = (work) => work().catch((failure) => { error.textContent = failure.message || "Something went wrong. Please try again."; });
  const box = h("div", { class: "stack", role: "group", "aria-label": "Other ways to sign in" });
  if (google) {
    const slot = h("div", { class: "sso-google" });
    box.append(slot);
    run(async () => {
      await loadScript("https://accounts.google.com/gsi/client");
      window.google.accounts.id.initialize({
        client_id: google, callback: ({ credential }) => run(() => finish(ctx, "google.com", { id_token: credential })),
      });
      const dark = document.documentElement.getAttribute("data-theme") === "dark" || matchMedia("(prefers-color-scheme: dark)").matches;
      window.google.accounts.id.renderButton(slot, { theme: dark ? "filled_black" : "outline", size: "large", text: "continue_with", width: 320 });
    });
  }
  if (apple) {
    box.append(h("button", { class: "button block", type: "button", onclick: () => run(async () => {
      await loadScript("https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js");
      const raw = `${crypto.randomUUID()}${crypto.randomUUID()}`;
      window.AppleID.auth.init({ clientId: apple, scope: "name email", redirectURI: `${location.origin}/`, usePopup: true, nonce: await sha256Hex(raw) });
      let answer;
      try {
        answer = await window.AppleID.auth.signIn();
      } catch (failure) {
        if (failure?.error === "popup_closed_by_user" || failure?.error === "user_cancelled_authorize") return;
        throw new ApiError("INVALID_CREDENTIAL", "Sign in with Apple did not complete. Please try again.");
      }
      const name = [answer.user?.name?.firstName, answer.user?.name?.lastName].filter(Boolean).join(" ");
      await finish(ctx, "apple.com", {
        id_token: answer.authorization.id_token, raw_nonce: raw, authorization_code: answer.authorization.code, ...(name ? { name } : {}),
      });
    }) }, "Sign in with Apple"));
  }
  box.append(error);
  return box;
}
