// Profile: name, units, time zone, week start, theme; email and password (re-authentication when asked for),
// sign-in methods, sign out everywhere, account deletion (the iOS app's flows, docs/product.md); subscription status; import and export.
import { call, signOut, forget, ApiError } from "../lib/api.js";
import { h, replace, field, segmented, openDialog, confirmAction, toast, uid } from "../lib/dom.js";
import * as fmt from "../lib/format.js";
import { exportJSON, exportStrongCSV } from "../lib/export.js";

const PROVIDERS = { password: "Email and password", "google.com": "Google", "apple.com": "Apple" };

/** Asks for the password again (the iOS app's ReauthenticationView); resolves true once signed in again. */
function reauthenticate() {
  return openDialog("Confirm it's you", (close) => {
    const error = h("p", { class: "error-text", role: "alert" });
    const form = h("form", { class: "stack" },
      h("p", { class: "muted" }, "For your security, please sign in again to continue."),
      field("Password", { type: "password", name: "password", autocomplete: "current-password", required: true }),
      error,
      h("div", { class: "row" }, h("button", { class: "button primary", type: "submit" }, "Continue"), h("button", { class: "button", type: "button", onclick: () => close(false) }, "Cancel")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await call("reauthenticate", { provider: "password", password: new FormData(form).get("password") });
        close(true);
      } catch (failure) {
        error.textContent = failure.message;
      }
    });
    return form;
  });
}

/** Runs `action`; when the server asks for a recent sign-in, asks for it and runs it once more. */
async function withRecentLogin(action) {
  try {
    return await action();
  } catch (error) {
    if (error.code !== "REQUIRES_RECENT_LOGIN") throw error;
    if (!(await reauthenticate())) return null;
    return action();
  }
}

function dialogForm(title, fields, submitLabel, onsubmit) {
  return openDialog(title, (close) => {
    const error = h("p", { class: "error-text", role: "alert" });
    const form = h("form", { class: "stack" }, fields, error,
      h("div", { class: "row" }, h("button", { class: "button primary", type: "submit" }, submitLabel), h("button", { class: "button", type: "button", onclick: () => close(null) }, "Cancel")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try { close(await onsubmit(new FormData(form)) ?? true); } catch (failure) { error.textContent = failure.message; }
    });
    return form;
  });
}

function preferences(ctx, user) {
  const save = async (changes, message = "Saved.") => {
    try {
      await call("updateUser", changes);
      await ctx.refreshUser();
      toast(message);
    } catch (error) {
      toast(error.message);
    }
  };
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const zones = [...new Set([user.time_zone || Intl.DateTimeFormat().resolvedOptions().timeZone, "UTC", ...known])];
  const nameField = field("Name", { value: user.name || "", autocomplete: "name", onchange: (e) => save({ name: e.target.value.trim() || null }) });
  const zoneField = field("Time zone", { value: user.time_zone || "", options: zones.map((z) => ({ value: z, label: z.replaceAll("_", " ") })), onchange: (e) => save({ time_zone: e.target.value }) });
  return h("section", { class: "card", "aria-labelledby": "prefs-title" },
    h("h2", { id: "prefs-title" }, "Profile"),
    nameField,
    segmented("Units", "units", [{ value: "kg", label: "kg" }, { value: "lb", label: "lb" }], fmt.units(),
      (value) => save({ weight_format: fmt.formatFromUnit(value) }, `Weights now in ${value}.`)),
    zoneField,
    segmented("Week starts on", "week-start", [{ value: "mon", label: "Monday" }, { value: "sun", label: "Sunday" }], user.week_starts_on_monday === false ? "sun" : "mon",
      (value) => save({ week_starts_on_monday: value === "mon" })),
    segmented("Appearance", "theme", [{ value: "system", label: "Auto" }, { value: "light", label: "Light" }, { value: "dark", label: "Dark" }], ctx.store.get().theme,
      (value) => { ctx.store.set({ theme: value }); ctx.applyTheme(value); }));
}

function verification(ctx, account) {
  if (account.email_verified) return null;
  const codeId = uid("code");
  const form = h("form", { class: "banner stack", "aria-label": "Verify your email" },
    h("p", {}, `Verify ${account.email}: enter the code we emailed you.`),
    h("div", { class: "row" },
      h("label", { for: codeId, class: "visually-hidden" }, "Verification code"),
      h("input", { class: "input grow", id: codeId, name: "code", autocomplete: "one-time-code", required: true, placeholder: "Code" }),
      h("button", { class: "button small primary", type: "submit" }, "Verify")),
    h("button", { class: "button small ghost", type: "button", onclick: async () => { await call("resendEmailVerification", {}); toast("A new code is on its way."); } }, "Send a new code"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await call("verifyEmail", { code: new FormData(form).get("code") });
      ctx.store.set({ verifyEmail: null });
      form.replaceWith(h("p", { class: "banner", role: "status" }, "Email verified."));
    } catch (error) {
      toast(error.message);
    }
  });
  return form;
}

function security(ctx, account) {
  const hasPassword = account.providers.some((p) => p.provider_id === "password");
  const changeEmail = () => dialogForm("Change email",
    [field("New email", { type: "email", name: "new_email", required: true, autocomplete: "email" })], "Send code",
    async (data) => {
      const answer = await withRecentLogin(() => call("changeEmail", { new_email: data.get("new_email") }));
      if (answer) toast(`A code was sent to ${answer.verification_sent_to}.`);
      return answer;
    });
  const changePassword = () => dialogForm(hasPassword ? "Change password" : "Set password",
    [hasPassword ? field("Current password", { type: "password", name: "current", required: true, autocomplete: "current-password" }) : null,
      field("New password", { type: "password", name: "new", required: true, minlength: 8, autocomplete: "new-password" })],
    hasPassword ? "Change password" : "Set password",
    async (data) => {
      const done = await withRecentLogin(() => (hasPassword
        ? call("changePassword", { current_password: data.get("current"), new_password: data.get("new") })
        : call("setPassword", { password: data.get("new") })));
      if (done) toast("Password changed. Other sessions were signed out.");
      return done;
    });
  const unlink = async (provider) => {
    if (!(await confirmAction(`Unlink ${PROVIDERS[provider] || provider}?`, "You will no longer sign in with it.", "Unlink", { destructive: true }))) return;
    try {
      await withRecentLogin(() => call("unlinkProvider", { provider }));
      ctx.navigate("profile");
    } catch (error) { toast(error.message); }
  };
  return h("section", { class: "card", "aria-labelledby": "account-title" },
    h("h2", { id: "account-title" }, "Account"),
    verification(ctx, account),
    h("div", { class: "row spread" }, h("div", { class: "grow" }, h("div", { class: "caption" }, "Email"), h("div", {}, account.email)),
      hasPassword ? h("button", { class: "button small", type: "button", onclick: changeEmail }, "Change email") : h("span", { class: "caption" }, `Managed by ${PROVIDERS[account.original_provider] || account.original_provider}`)),
    h("button", { class: "button", type: "button", onclick: changePassword }, hasPassword ? "Change password" : "Set password"),
    h("div", { class: "stack" }, h("p", { class: "section-title" }, "Sign-in methods"),
      h("ul", { class: "list" }, account.providers.map((p) => h("li", { class: "list-item" },
        h("span", { class: "grow" }, PROVIDERS[p.provider_id] || p.provider_id, p.email ? h("span", { class: "caption" }, ` · ${p.email}`) : null),
        account.providers.length > 1 ? h("button", { class: "button small ghost", type: "button", onclick: () => unlink(p.provider_id) }, "Unlink") : null)))),
    h("div", { class: "row" },
      h("button", { class: "button", type: "button", onclick: () => signOut(false) }, "Sign out"),
      h("button", { class: "button", type: "button", onclick: async () => {
        if (await confirmAction("Sign out everywhere?", "Every device signed in to your account is signed out, this one included.", "Sign out everywhere")) signOut(true);
      } }, "Sign out everywhere")));
}

function subscription(status) {
  if (!status) return null;
  const text = status.is_premium
    ? `Premium${status.expires_at ? ` until ${fmt.date(status.expires_at)}` : ""}${status.override === "premium" ? " (granted)" : ""}`
    : "Free";
  return h("section", { class: "card", "aria-labelledby": "sub-title" },
    h("h2", { id: "sub-title" }, "Subscription"),
    h("p", {}, h("strong", {}, text), status.status && status.status !== "free" ? h("span", { class: "muted" }, ` · ${status.status.replace("_", " ")}`) : null),
    h("p", { class: "caption" }, "Subscriptions are bought and managed in the Povver iOS app."));
}

function data(ctx) {
  const progress = h("progress", { max: 3, value: 0, hidden: true, "aria-label": "Import progress" });
  const result = h("div", { role: "status" });
  const fileId = uid("file");
  const form = h("form", { class: "stack" },
    h("div", { class: "field" }, h("label", { for: fileId }, "Strong or Hevy export (CSV)"), h("input", { class: "input", id: fileId, name: "file", type: "file", accept: ".csv,text/csv", required: true })),
    field("Format", { name: "format", options: [{ value: "strong_csv", label: "Strong" }, { value: "hevy_csv", label: "Hevy" }] }),
    field("Weights in the file", { name: "weight_unit", value: fmt.units(), options: [{ value: "kg", label: "kg" }, { value: "lb", label: "lb" }] }),
    h("button", { class: "button", type: "submit" }, "Import"), progress, result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = new FormData(form);
    const file = values.get("file");
    progress.hidden = false;
    progress.value = 1;
    result.textContent = "Reading the file…";
    try {
      const content = await file.text();
      progress.value = 2;
      result.textContent = "Importing… (a large history takes a moment)";
      const answer = await call("importWorkouts", {
        format: values.get("format"), content, weight_unit: values.get("weight_unit"), time_zone: ctx.store.get().user.time_zone || Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
      progress.value = 3;
      const plural = (n, word) => `${fmt.count(n)} ${word}${n === 1 ? "" : "s"}`;
      replace(result,
        h("p", {}, `Imported ${plural(answer.imported, "workout")} (${plural(answer.sets, "set")}).`),
        answer.skipped?.length ? h("p", { class: "caption" }, `${plural(answer.skipped.length, "row")} skipped (first: row ${answer.skipped[0].row}, ${answer.skipped[0].reason}).`) : null,
        answer.unmatched_exercises?.length ? h("p", { class: "caption" }, `Not in the catalog: ${answer.unmatched_exercises.map((u) => u.name).slice(0, 5).join(", ")}.`) : null);
    } catch (error) {
      progress.hidden = true;
      result.textContent = error instanceof ApiError ? error.message : "The file could not be read.";
    }
  });
  return h("section", { class: "card", "aria-labelledby": "data-title" },
    h("h2", { id: "data-title" }, "Your data"),
    h("h3", {}, "Import"), form,
    h("h3", {}, "Export"),
    h("div", { class: "row" },
      h("button", { class: "button", type: "button", onclick: (e) => exportJSON(ctx, e.currentTarget) }, "Export JSON"),
      h("button", { class: "button", type: "button", onclick: (e) => exportStrongCSV(ctx, e.currentTarget) }, "Export CSV (Strong)")));
}

/** The iOS app's DeleteAccountView: the warning, a fresh sign-in, the confirmation, then deletion. */
function deletion(ctx) {
  const start = async () => {
    const understood = await openDialog("Delete your account?", (close) => h("div", { class: "stack" },
      h("p", {}, "This deletes your account and everything in it: conversations, plans, workouts, progress and recommendations. It cannot be undone."),
      h("p", { class: "muted" }, "A subscription bought in the App Store is cancelled there, not here."),
      h("div", { class: "row" },
        h("button", { class: "button destructive", type: "button", onclick: () => close(true) }, "Continue"),
        h("button", { class: "button", type: "button", onclick: () => close(false) }, "Keep my account"))));
    if (!understood) return;
    if (!(await reauthenticate())) return;
    const sure = await confirmAction("Delete everything?", "Your account and all its data are deleted now.", "Delete account", { destructive: true });
    if (!sure) return;
    try {
      await withRecentLogin(() => call("deleteAccount", {}));
      localStorage.clear();
      forget();
      toast("Your account was deleted.");
    } catch (error) {
      toast(error.message);
    }
  };
  return h("section", { class: "card", "aria-labelledby": "delete-title" },
    h("h2", { id: "delete-title" }, "Delete account"),
    h("p", { class: "muted" }, "Remove your account and all of your data."),
    h("button", { class: "button destructive", type: "button", onclick: start }, "Delete account"));
}

export async function render(ctx) {
  ctx.setTitle("Profile");
  const [user, account, status] = await Promise.all([
    ctx.refreshUser(), call("getAccount", {}), call("getSubscriptionStatus", {}).catch(() => null),
  ]);
  return h("div", { class: "stack-l" }, preferences(ctx, user), security(ctx, account), subscription(status), data(ctx), deletion(ctx));
}
