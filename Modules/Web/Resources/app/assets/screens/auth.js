// Signed out: sign in, create an account, forgot password, and set a new one with the emailed code.
import { call, ApiError } from "../lib/api.js";
import { h, field } from "../lib/dom.js";
import { ssoButtons } from "./sso.js";

function brand(subtitle) {
  return h("div", { class: "brand" },
    h("img", { src: new URL("../icons/icon.svg", import.meta.url).href, alt: "", width: 48, height: 48 }),
    h("div", {}, h("h1", {}, "Povver"), h("p", { class: "muted" }, subtitle)));
}

function form(onsubmit, ...children) {
  const error = h("p", { class: "error-text", role: "alert" });
  const element = h("form", { class: "stack", novalidate: false }, ...children, error);
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const button = element.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await onsubmit(new FormData(element));
    } catch (failure) {
      error.textContent = failure instanceof ApiError ? failure.message : "Something went wrong. Please try again.";
    } finally {
      button.disabled = false;
    }
  });
  return element;
}

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function signIn(ctx) {
  ctx.setTitle?.("Sign in");
  return [
    brand("Your AI strength coach."),
    h("h2", {}, "Sign in"),
    form(async (data) => {
      await call("signIn", { email: data.get("email"), password: data.get("password"), time_zone: zone() }, { auth: false });
      await ctx.signedIn();
    },
    field("Email", { type: "email", name: "email", autocomplete: "email", required: true }),
    field("Password", { type: "password", name: "password", autocomplete: "current-password", required: true }),
    h("button", { class: "button primary block", type: "submit" }, "Sign in")),
    ssoButtons(ctx),
    h("p", { class: "row spread" },
      h("a", { href: "#/forgot" }, "Forgot password?"),
      h("a", { href: "#/signup" }, "Sign up")),
  ];
}

function signUp(ctx) {
  return [
    brand("Plan with your coach, train set by set."),
    h("h2", {}, "Create your account"),
    form(async (data) => {
      const name = String(data.get("name") || "").trim();
      const answer = await call("signUp", {
        email: data.get("email"), password: data.get("password"), ...(name ? { name } : {}), time_zone: zone(),
      }, { auth: false });
      ctx.store.set({ verifyEmail: answer.user?.email_verified === false ? answer.user.email : null });
      await ctx.signedIn();
    },
    field("Name", { type: "text", name: "name", autocomplete: "name" }),
    field("Email", { type: "email", name: "email", autocomplete: "email", required: true }),
    field("Password", { type: "password", name: "password", autocomplete: "new-password", required: true, minlength: 8 },
      h("span", { class: "caption" }, "At least 8 characters.")),
    h("button", { class: "button primary block", type: "submit" }, "Create account")),
    ssoButtons(ctx),
    h("p", {}, "Already have an account? ", h("a", { href: "#/signin" }, "Sign in instead")),
  ];
}

function forgot() {
  const sent = h("div", { class: "banner", role: "status", hidden: true });
  return [
    brand("Reset your password."),
    h("h2", {}, "Forgot password"),
    form(async (data) => {
      await call("sendPasswordReset", { email: data.get("email") }, { auth: false });
      sent.hidden = false;
      sent.replaceChildren("If an account uses this email, a reset code is on its way. ", h("a", { href: "#/reset" }, "Enter the code"));
    },
    field("Email", { type: "email", name: "email", autocomplete: "email", required: true }),
    h("button", { class: "button primary block", type: "submit" }, "Send reset code")),
    sent,
    h("p", {}, h("a", { href: "#/signin" }, "Back to sign in")),
  ];
}

function reset(ctx) {
  return [
    brand("Choose a new password."),
    h("h2", {}, "New password"),
    form(async (data) => {
      await call("resetPassword", { code: data.get("code"), new_password: data.get("password") }, { auth: false });
      ctx.navigate("signin");
    },
    field("Code from the email", { type: "text", name: "code", autocomplete: "one-time-code", required: true }),
    field("Password", { type: "password", name: "password", autocomplete: "new-password", required: true, minlength: 8 }),
    h("button", { class: "button primary block", type: "submit" }, "Set password")),
    h("p", {}, h("a", { href: "#/signin" }, "Back to sign in")),
  ];
}

export function render(ctx) {
  const screens = { signin: signIn, signup: signUp, forgot, reset };
  return (screens[ctx.route.name] || signIn)(ctx);
}
