// Small DOM helpers: build elements from tags, properties and children; nothing else.
const PROPERTIES = new Set(["value", "checked", "disabled", "selected", "hidden", "indeterminate", "open"]);

/** An element: `h("button", { class: "button", onclick }, "Save")`. Null, false and undefined children are skipped. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, children);
  return el;
}

/** An SVG element (charts, icons). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) if (value != null) el.setAttribute(key, String(value));
  append(el, children);
  return el;
}

function setProps(el, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (PROPERTIES.has(key)) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let idCounter = 0;
/** A unique id for label/field pairs. */
export function uid(prefix = "id") {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** A labelled input: `<div class=field><label for>Label</label><input id></div>`. */
export function field(label, inputProps = {}, extra = null) {
  const id = inputProps.id || uid("field");
  const tag = inputProps.multiline ? "textarea" : inputProps.options ? "select" : "input";
  const { multiline, options, ...props } = inputProps;
  const control = h(tag, { class: "input", id, ...props },
    options ? options.map((option) => h("option", { value: option.value, selected: option.value === props.value }, option.label)) : null);
  return h("div", { class: "field" }, h("label", { for: id }, label), control, extra);
}

/** A segmented radio group (`Units`: kg / lb). */
export function segmented(legend, name, choices, current, onchange) {
  return h("fieldset", {},
    h("legend", {}, legend),
    h("div", { class: "segmented" }, choices.map((choice) =>
      h("label", {},
        h("input", { type: "radio", name, value: choice.value, checked: choice.value === current, onchange: () => onchange(choice.value) }),
        h("span", {}, choice.label)))));
}

/** A modal dialog with a title; resolves with the value `build` passes to `close`, or null when dismissed. */
export function openDialog(title, build) {
  return new Promise((resolve) => {
    const headingId = uid("dialog");
    const dialog = h("dialog", { "aria-labelledby": headingId });
    let result = null;
    const close = (value = null) => { result = value; dialog.close(); };
    append(dialog, [h("div", { class: "stack" }, h("h2", { id: headingId }, title), build(close))]);
    dialog.addEventListener("close", () => { dialog.remove(); resolve(result); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Asks for confirmation: resolves true when the user confirms. */
export function confirmAction(title, message, confirmLabel, { destructive = false } = {}) {
  return openDialog(title, (close) => h("div", { class: "stack" },
    h("p", {}, message),
    h("div", { class: "row" },
      h("button", { class: `button ${destructive ? "destructive" : "primary"}`, type: "button", onclick: () => close(true) }, confirmLabel),
      h("button", { class: "button", type: "button", onclick: () => close(false) }, "Cancel")))).then(Boolean);
}

/** Announces a short message to screen readers and shows it briefly. */
export function toast(message) {
  let region = document.getElementById("toast");
  if (!region) {
    region = h("div", { id: "toast", class: "toast", role: "status", "aria-live": "polite" });
    document.body.append(region);
  }
  region.textContent = message;
  clearTimeout(region.timer);
  region.timer = setTimeout(() => { region.textContent = ""; }, 4000);
}
