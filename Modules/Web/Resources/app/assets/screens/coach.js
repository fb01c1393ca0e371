// The coach: conversations, the chat with the answer streaming in, the status line while it thinks or uses a
// tool, and the cards it proposes.
import { call, stream, ApiError } from "../lib/api.js";
import { h, replace, uid } from "../lib/dom.js";
import { icon } from "../lib/icons.js";
import * as fmt from "../lib/format.js";
import { renderCard } from "./cards.js";

const TOOL_NAMES = {
  ask_clarifying_questions: "Preparing a question", propose_routine: "Drafting a routine", propose_workout: "Drafting a workout",
  search_exercises: "Searching exercises", get_training_context: "Reading your training", get_analysis_summary: "Reading your analysis",
  get_exercise_progress: "Reading your progress",
};
const toolText = (tool) => TOOL_NAMES[tool] || `Using ${String(tool || "a tool").replaceAll("_", " ")}`;

/**
 * A chat panel: the transcript and a composer labelled Message. Used by the Coach screen and by the workout
 * (with `workoutId`, the coach in workout mode). `onTurnEnd` runs after each answer.
 */
export function chatPanel(app, { conversationId = null, workoutId = null, onConversation = () => {}, onTurnEnd = () => {}, compact = false } = {}) {
  let conversation = conversationId;
  const transcript = h("div", { class: "chat", role: "log", "aria-live": "polite", "aria-label": "Conversation" });
  const status = h("div", { class: "status-line", role: "status", hidden: true });
  const messageId = uid("message");
  const input = h("textarea", { class: "input", id: messageId, rows: 1, name: "message", placeholder: workoutId ? "“8 @ 100”, “done”…" : "Ask your coach…", required: true });
  const send = h("button", { class: "icon-button", type: "submit", "aria-label": "Send" }, icon("send"));
  const composer = h("form", { class: "composer" }, h("label", { for: messageId, class: "visually-hidden" }, "Message"), input, send);
  let busy = false;

  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); composer.requestSubmit(); }
  });
  composer.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && !busy) { input.value = ""; ask(text); }
  });

  /** Keeps the newest part of the answer in view while it streams, unless the reader scrolled up. */
  function follow() {
    const nearBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160;
    if (nearBottom || busy) requestAnimationFrame(() => composer.scrollIntoView({ block: "end" }));
  }

  const cardContext = () => ({ conversationId: conversation, app, ask: (text) => ask(text) });

  function bubble(role, text) {
    const element = h("div", { class: `bubble ${role}` }, h("span", { class: "visually-hidden" }, role === "user" ? "You: " : "Coach: "), text);
    transcript.append(element);
    return element;
  }

  function showStatus(text) {
    if (!text) { status.hidden = true; status.replaceChildren(); return; }
    status.hidden = false;
    status.replaceChildren(h("span", { class: "dot-pulse", "aria-hidden": "true" }), text);
  }

  async function ask(text) {
    busy = true;
    send.disabled = true;
    bubble("user", text);
    showStatus("Thinking…");
    let answer = null;
    try {
      if (!conversation) {
        conversation = (await call("initializeSession", {})).conversation_id;
        onConversation(conversation);
      }
      await stream({ conversation_id: conversation, message: text, ...(workoutId ? { workout_id: workoutId } : {}) }, (event) => {
        switch (event.type) {
          case "text":
            if (!answer) answer = bubble("assistant", "");
            answer.append(event.delta || "");
            break;
          case "status":
            showStatus(event.phase === "tool_start" ? `${toolText(event.tool)}…` : event.detail || "Thinking…");
            break;
          case "artifact":
            transcript.append(renderCard({ id: event.artifact_id, ...event.data }, cardContext()));
            break;
          case "error": {
            const code = event.code || event.error?.code;
            const message = code === "PREMIUM_REQUIRED"
              ? "Coaching is part of Povver Premium. Subscribe in the Povver iOS app, then come back here."
              : event.message || event.error?.message || "The coach could not answer. Please try again.";
            transcript.append(h("div", { class: "banner error", role: "alert" }, message));
            break;
          }
          default:
            break;
        }
        follow();
      });
    } catch (error) {
      transcript.append(h("div", { class: "banner error", role: "alert" }, error instanceof ApiError ? error.message : "The coach could not answer. Please try again."));
    } finally {
      showStatus(null);
      busy = false;
      send.disabled = false;
      onTurnEnd();
    }
  }

  async function load() {
    if (!conversation) return;
    const data = await call("getConversation", { conversation_id: conversation });
    const messages = [...(data.messages || [])].reverse();
    const artifacts = data.artifacts || [];
    const items = [];
    for (const message of messages) {
      items.push(bubble(message.role === "user" ? "user" : "assistant", message.content || ""));
      for (const artifact of artifacts.filter((a) => a.message_id === message.id)) items.push(renderCard(artifact, cardContext()));
    }
    for (const artifact of artifacts.filter((a) => !messages.some((m) => m.id === a.message_id))) items.push(renderCard(artifact, cardContext()));
    replace(transcript, items);
  }

  const element = h("section", { class: `stack${compact ? " compact" : ""}`, "aria-label": workoutId ? "Coach in workout" : "Chat" }, transcript, status, composer);
  return { element, load, ask, focus: () => input.focus() };
}

export async function render(ctx) {
  const [id] = ctx.route.params;
  ctx.setTitle("Coach");
  const panel = chatPanel(ctx, {
    conversationId: id || null,
    onConversation: (newId) => history.replaceState(null, "", `#/coach/${encodeURIComponent(newId)}`),
  });
  if (id) {
    await panel.load();
    return [h("div", { class: "row" }, h("a", { class: "button ghost small", href: "#/coach" }, icon("back"), "Conversations")), panel.element];
  }
  const conversations = h("section", { class: "stack", "aria-labelledby": "conversations-title", hidden: true });
  // The list comes after the composer is usable.
  call("getConversations", { limit: 20 }).then((page) => {
    const list = page.items || [];
    if (!list.length) return;
    conversations.hidden = false;
    conversations.replaceChildren(
      h("h2", { id: "conversations-title", class: "section-title" }, "Conversations"),
      h("ul", { class: "list" }, list.map((item) => h("li", {},
        h("a", { class: "list-item", href: `#/coach/${encodeURIComponent(item.id)}` },
          h("span", { class: "grow" }, item.title || "Conversation"),
          h("span", { class: "caption" }, fmt.date(item.updated_at)))))));
  }).catch(() => {});
  call("prewarmSession", {}).catch(() => {});
  const unverified = ctx.store.get().verifyEmail;
  return [
    unverified ? h("div", { class: "banner", role: "status" },
      `We emailed a code to ${unverified} to verify your address. `, h("a", { href: "#/profile" }, "Enter the code")) : null,
    h("div", { class: "stack" },
      h("h2", {}, "What are we training?"),
      h("p", { class: "muted" }, "Ask for a plan, a progress check or today's workout.")),
    panel.element,
    h("div", { class: "choices", role: "group", "aria-label": "Suggestions" },
      ["Make me a 3-day plan", "What should I do today?", "How am I doing?"].map((text) =>
        h("button", { class: "button small", type: "button", onclick: (event) => { event.currentTarget.parentElement.remove(); panel.ask(text); } }, text))),
    conversations,
  ];
}
