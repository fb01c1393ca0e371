// Povver in the browser: boots the session, draws the shell (title, sync state, the five tabs) and shows the
// screen the address names. Screens are ES modules loaded when first opened.
import { call, refresh, onSessionChange, ApiError } from "./lib/api.js";
import { h, replace, toast } from "./lib/dom.js";
import { icon } from "./lib/icons.js";
import { createStore } from "./lib/store.js";
import { configure, unitFromFormat } from "./lib/format.js";
import { createWorkoutService } from "./lib/workout.js";

const TABS = [
  { route: "coach", label: "Coach" },
  { route: "plans", label: "Plans" },
  { route: "workout", label: "Workout" },
  { route: "progress", label: "Progress" },
  { route: "profile", label: "Profile" },
];
const SIGNED_OUT = new Set(["signin", "signup", "forgot", "reset"]);
const SCREENS = {
  signin: () => import("./screens/auth.js"),
  signup: () => import("./screens/auth.js"),
  forgot: () => import("./screens/auth.js"),
  reset: () => import("./screens/auth.js"),
  coach: () => import("./screens/coach.js"),
  plans: () => import("./screens/plans.js"),
  workout: () => import("./screens/workout.js"),
  progress: () => import("./screens/progress.js"),
  profile: () => import("./screens/profile.js"),
};

const root = document.getElementById("app");
const store = createStore({ user: null, online: navigator.onLine, pending: 0, theme: localStorage.getItem("povver.theme") || "system" });
const app = { store, workout: null, navigate, setTitle, refreshUser, applyTheme, signedIn };
let leave = null;
let renderCount = 0;

applyTheme(store.get().theme);
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
window.addEventListener("online", () => { store.set({ online: true }); app.workout?.sync(); });
window.addEventListener("offline", () => store.set({ online: false }));
window.addEventListener("hashchange", show);
onSessionChange((active) => {
  if (active) return;
  const user = store.get().user;
  if (user) localStorage.removeItem(`povver.user`);
  store.set({ user: null });
  app.workout = null;
  navigate("signin");
});

/** Moves to `route` (`coach`, `plans/template/ID`, …). */
export function navigate(route) {
  if (location.hash === `#/${route}`) show();
  else location.hash = `#/${route}`;
}

function setTitle(text) {
  const title = document.getElementById("page-title");
  if (title) title.textContent = text;
  document.title = `${text} · Povver`;
}

function applyTheme(theme) {
  if (theme === "system") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", theme);
  localStorage.setItem("povver.theme", theme);
}

/** Reads the profile again (after a change of units, name, time zone). */
async function refreshUser() {
  const user = await call("getUser");
  adoptUser(user);
  return user;
}

function adoptUser(user) {
  configure({ units: unitFromFormat(user.weight_format), zone: user.time_zone || undefined });
  localStorage.setItem("povver.user", JSON.stringify(user));
  store.set({ user });
}

/** After a sign-in or sign-up: the profile, the workout service, then the coach. */
async function signedIn(next = "coach") {
  const user = await refreshUser();
  app.workout = createWorkoutService(user.id, store);
  navigate(next);
}

function currentRoute() {
  const path = location.hash.replace(/^#\/?/, "");
  const [name, ...rest] = path.split("/");
  return { name: name || "", params: rest.map(decodeURIComponent), path };
}

async function show() {
  const route = currentRoute();
  const user = store.get().user;
  if (!user && !SIGNED_OUT.has(route.name)) return navigate("signin");
  if (user && (SIGNED_OUT.has(route.name) || !SCREENS[route.name])) return navigate("coach");
  const render = ++renderCount;
  if (leave) { leave(); leave = null; }
  const module = await SCREENS[route.name]();
  if (render !== renderCount) return;
  const cleanups = [];
  const context = { ...app, route, onLeave: (fn) => cleanups.push(fn) };
  const view = SIGNED_OUT.has(route.name) ? signedOutFrame(route.name) : shell(route.name);
  try {
    const content = await module.render(context);
    // Another address was opened while this screen loaded: it is dropped, and what it started is stopped.
    if (render !== renderCount) {
      cleanups.forEach((fn) => fn());
      return;
    }
    replace(view.main, content);
  } catch (error) {
    if (render !== renderCount) return;
    replace(view.main, h("div", { class: "banner error", role: "alert" }, error instanceof ApiError ? error.message : "Something went wrong. Please try again."));
    if (!(error instanceof ApiError)) console.error(error);
  }
  leave = () => cleanups.forEach((fn) => fn());
  if (render === renderCount) {
    view.main.focus({ preventScroll: true });
    // The first screen that can be used: measured by the browser tests (docs/web.md, "Benchmarks").
    if (!performance.getEntriesByName("povver-usable").length) performance.mark("povver-usable");
  }
}

function signedOutFrame() {
  const main = h("main", { id: "main", class: "auth", tabindex: "-1", "aria-label": "Povver" });
  replace(root, main);
  return { main };
}

let shellParts = null;
function shell(active) {
  if (!shellParts || !root.contains(shellParts.main)) {
    const title = h("h1", { id: "page-title" }, "Povver");
    const sync = h("span", { class: "sync-badge", role: "status", "aria-live": "polite" });
    const main = h("main", { id: "main", tabindex: "-1", "aria-labelledby": "page-title" });
    const links = TABS.map((tab) => h("a", { href: `#/${tab.route}`, "data-route": tab.route }, icon(tab.route), h("span", {}, tab.label)));
    const nav = h("nav", { class: "tabbar", "aria-label": "Main" }, h("ul", {}, links.map((link) => h("li", {}, link))));
    replace(root, h("div", { class: "shell" },
      h("a", { class: "skip-link", href: "#main", onclick: (event) => { event.preventDefault(); main.focus(); } }, "Skip to content"),
      h("header", { class: "topbar" }, title, sync),
      main, nav));
    shellParts = { main, links, sync };
    store.subscribe(updateSync);
  }
  for (const link of shellParts.links) {
    if (link.dataset.route === active) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  updateSync(store.get());
  return shellParts;
}

function updateSync(state) {
  if (!shellParts) return;
  const { sync } = shellParts;
  if (state.pending > 0) {
    sync.hidden = false;
    sync.className = `sync-badge${state.online ? "" : " offline"}`;
    sync.textContent = `${state.pending} not synced${state.online ? "" : " · offline"}`;
  } else if (!state.online) {
    sync.hidden = false;
    sync.className = "sync-badge offline";
    sync.textContent = "Offline";
  } else {
    sync.hidden = true;
    sync.textContent = "";
  }
}

async function boot() {
  const cached = JSON.parse(localStorage.getItem("povver.user") || "null");
  try {
    const token = await refresh();
    if (token && cached) {
      // The profile this device knew draws the first screen; the server's copy follows.
      adoptUser(cached);
      app.workout = createWorkoutService(cached.id, store);
      refreshUser().catch(() => {});
    } else if (token) {
      await refreshUser();
      app.workout = createWorkoutService(store.get().user.id, store);
    }
  } catch (error) {
    // No network: the last signed-in user's workout still opens (the session is refreshed once back online).
    if (error instanceof ApiError && error.offline && cached) {
      configure({ units: unitFromFormat(cached.weight_format), zone: cached.time_zone || undefined });
      store.set({ user: cached, online: false });
      app.workout = createWorkoutService(cached.id, store);
      toast("You are offline. Your workout keeps working; it syncs when you are back.");
    }
  }
  if (!location.hash || location.hash === "#" || location.hash === "#/") {
    const resume = app.workout && app.workout.hasActive();
    navigate(store.get().user ? (resume ? "workout" : "coach") : "signin");
  } else {
    show();
  }
}

boot();
