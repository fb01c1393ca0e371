// The one place that speaks HTTP: the envelope, the session (access token in memory only, refresh token in an
// HttpOnly cookie the page never sees), friendly errors and the coach's event stream.
const SESSION_CALLS = new Set(["signUp", "signIn", "signInWithIdp", "refreshToken", "signOut", "changePassword", "reauthenticate"]);
const FRIENDLY = {
  NETWORK: "Network error. Please check your connection and try again.",
  WRONG_PASSWORD: "Incorrect password. Please try again.",
  REQUIRES_RECENT_LOGIN: "For your security, please sign in again to continue.",
  EMAIL_ALREADY_IN_USE: "This email is already in use by another account.",
  INVALID_CREDENTIAL: "The sign-in credentials are invalid. Please try again.",
  INTERNAL: "Something went wrong. Please try again.",
};

/** A refused call: a stable `code`, a friendly `message`, the HTTP `status` (0 when the network failed). */
export class ApiError extends Error {
  constructor(code, message, status = 0, details = {}) {
    super(message || FRIENDLY[code] || FRIENDLY.INTERNAL);
    this.code = code;
    this.status = status;
    this.details = details;
  }
  get offline() { return this.code === "NETWORK"; }
}

let access = null;
let refreshing = null;
const listeners = new Set();

/** Called with false when the session ends (signed out, revoked, expired). */
export function onSessionChange(listener) { listeners.add(listener); }

function adopt(data) {
  const tokens = data && data.tokens;
  if (tokens && tokens.access_token) {
    access = { token: tokens.access_token, expiresAt: Date.now() + (tokens.expires_in || 900) * 1000 };
  }
  return data;
}

function endSession() {
  access = null;
  for (const listener of listeners) listener(false);
}

async function send(name, body, token, { signal } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (SESSION_CALLS.has(name)) headers["X-Povver-Session"] = "cookie";
  let response;
  try {
    response = await fetch(`/${name}`, { method: "POST", headers, body: JSON.stringify(body || {}), credentials: "same-origin", signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("NETWORK", FRIENDLY.NETWORK, 0);
  }
  return response;
}

async function envelope(response) {
  let json = null;
  try { json = await response.json(); } catch { json = null; }
  if (response.ok && json && json.success) return json.data;
  const error = (json && json.error) || {};
  throw new ApiError(error.code || (response.status >= 500 ? "INTERNAL" : "UNKNOWN"), error.message, response.status, error.details || {});
}

/** A new access token from the cookie; one refresh at a time. Resolves null when there is no session. */
export function refresh() {
  if (!refreshing) {
    refreshing = (async () => {
      try {
        return adopt(await envelope(await send("refreshToken", {}))).tokens.access_token;
      } catch (error) {
        if (error.offline) throw error;
        endSession();
        return null;
      } finally {
        refreshing = null;
      }
    })();
  }
  return refreshing;
}

/** Whether an access token is held (the session may still need a refresh). */
export function hasSession() { return access !== null; }

async function token() {
  if (access && access.expiresAt - 30_000 > Date.now()) return access.token;
  return refresh();
}

/** Calls `POST /{name}` with `body`; answers `data`, or throws `ApiError`. `auth: false` for the sign-in family. */
export async function call(name, body = {}, { auth = true, signal } = {}) {
  if (!auth) return adopt(await envelope(await send(name, body, null, { signal })));
  let bearer = await token();
  if (!bearer) throw new ApiError("UNAUTHENTICATED", "Please sign in.", 401);
  let response = await send(name, body, bearer, { signal });
  if (response.status === 401) {
    bearer = await refresh();
    if (!bearer) throw new ApiError("UNAUTHENTICATED", "Please sign in.", 401);
    response = await send(name, body, bearer, { signal });
  }
  return adopt(await envelope(response));
}

/** Ends this session (or every session) and forgets the token. */
export async function signOut(allSessions = false) {
  try { await call("signOut", allSessions ? { all_sessions: true } : {}); } finally { endSession(); }
}

/** Forgets the session without asking the server (after the account is deleted). */
export function forget() { endSession(); }

/**
 * Streams the coach's answer: `onEvent` gets each server-sent event's JSON (`message_start`, `text`, `status`,
 * `artifact`, `message_end`, `error`). Resolves when the stream ends.
 */
export async function stream(body, onEvent, { signal } = {}) {
  let bearer = await token();
  if (!bearer) throw new ApiError("UNAUTHENTICATED", "Please sign in.", 401);
  let response = await send("streamAgentNormalized", body, bearer, { signal });
  if (response.status === 401) {
    bearer = await refresh();
    response = await send("streamAgentNormalized", body, bearer, { signal });
  }
  if (!response.ok || !(response.headers.get("Content-Type") || "").includes("text/event-stream")) {
    await envelope(response);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n");
      if (!data) continue;
      try { onEvent(JSON.parse(data)); } catch (error) { if (!(error instanceof SyntaxError)) throw error; }
    }
  }
}

/** A fresh idempotency key. */
export function newKey() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}
