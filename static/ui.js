// Small DOM helpers shared by the shell and by game renderers.

/** Build an element: h("button", {class: "x", onclick: fn, "data-kind": "red"}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key in el && typeof value !== "string") {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace everything inside `el`, keeping keyboard focus on the element with the same
 *  data-key, a `<details>` with a data-key open if it was (a traceback being read), and the
 *  scroll of each scrolled list with the same data-scroll: someone reading
 *  older moves is not sent back to the top by the next one. A list that grows at its top
 *  (`data-scroll-from="end"`, the newest-first log) keeps its distance from the end, so the
 *  lines being read stay where they were as lines are added or redrawn above them. */
export function replace(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : null;
  const scrolled = [...el.querySelectorAll("[data-scroll]")]
    .filter((n) => n.scrollTop || n.scrollLeft)
    .map((n) => [n.dataset.scroll, n.dataset.scrollFrom === "end" ? n.scrollHeight - n.scrollTop : n.scrollTop, n.scrollLeft]);
  const unfolded = [...el.querySelectorAll("details[open][data-key]")].map((n) => n.dataset.key);
  el.replaceChildren();
  append(el, children);
  for (const name of unfolded) {
    const again = el.querySelector(`details[data-key="${CSS.escape(name)}"]`);
    if (again) again.open = true;
  }
  if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
  for (const [name, top, left] of scrolled) {
    const again = el.querySelector(`[data-scroll="${CSS.escape(name)}"]`);
    if (!again) continue;
    again.scrollTop = again.dataset.scrollFrom === "end" ? again.scrollHeight - top : top;
    again.scrollLeft = left;
  }
}

/** What a Space key's release clicks: a press on it straddles a redraw as a pointer's does. */
const SPACE_CLICKS = "button, summary, [role=button], input[type=checkbox], input[type=radio]";

/** Hold redraws while a press (a pointer's, or Space on a button) is down inside `root`;
 *  returns {draw, dispose}.
 *  A click is a press and a release on one node, and a redraw replaces nodes: one that lands
 *  between the two (a message from the table, a refreshed list) leaves the release on a new
 *  node and the click is lost. So `draw` asked for during a press waits for its release and
 *  then runs once, after the click it let through; a press held longer than `maxMs` (a finger
 *  resting, a release outside the window) stops holding it back. */
export function holdDuringPress(root, draw, maxMs = 2000) {
  let pressed = false;
  let held = false;
  let cap = null;
  const flush = () => {
    clearTimeout(cap);
    cap = null;
    if (held) { held = false; draw(); }
  };
  const down = () => { pressed = true; };
  const up = () => {
    if (!pressed) return;
    pressed = false;
    setTimeout(flush); // the click is dispatched with the release, before this runs
  };
  // The Space key clicks a button on its release too (Enter clicks at once, on its press).
  const keyDown = (event) => {
    if (event.key === " " && !event.repeat && event.target.closest?.(SPACE_CLICKS)) down();
  };
  const keyUp = (event) => { if (event.key === " ") up(); };
  root.addEventListener("pointerdown", down, true);
  document.addEventListener("pointerup", up, true);
  document.addEventListener("pointercancel", up, true);
  root.addEventListener("keydown", keyDown, true);
  document.addEventListener("keyup", keyUp, true);
  return {
    draw() {
      if (!pressed) { held = false; draw(); return; }
      held = true;
      cap ??= setTimeout(() => { pressed = false; flush(); }, maxMs);
    },
    dispose() {
      clearTimeout(cap);
      root.removeEventListener("pointerdown", down, true);
      document.removeEventListener("pointerup", up, true);
      document.removeEventListener("pointercancel", up, true);
      root.removeEventListener("keydown", keyDown, true);
      document.removeEventListener("keyup", keyUp, true);
    },
  };
}

/** Run `draw` (which may move or rebuild focused elements) and put keyboard focus back on the
 *  element with the same data-key: a redraw must never steal the caret from someone typing. */
export function keepFocus(root, draw) {
  const key = document.activeElement?.dataset?.key;
  draw();
  if (!key || (document.activeElement && root.contains(document.activeElement)
               && document.activeElement.dataset.key === key)) return;
  const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) again.focus({ preventScroll: true });
}

/** A short-lived message; errors stay longer and can be dismissed. */
export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status",
                          "data-testid": "toast", "data-kind": kind },
    h("span", { class: "toast-icon", "aria-hidden": "true" }, kind === "error" ? "!" : "✓"),
    h("span", { class: "toast-text" }, message),
    h("button", { class: "toast-close", "aria-label": "Dismiss", onclick: () => item.remove() }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 3500);
  return item;
}

/** Take down the error toasts on show (they spoke of something the user has since fixed). */
export function clearToasts() {
  for (const item of document.querySelectorAll("#toasts .toast.error")) item.remove();
}

/** Client-side navigation: the router listens to popstate. */
export function navigate(path) {
  if (location.pathname !== path) history.pushState({}, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** A unique id for a move (crypto.randomUUID needs a secure context; LAN http is not one). */
export function uid() {
  if (window.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** Copy text, with a fallback for plain-http pages where the clipboard API is missing. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } }, text);
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }
}

/** "1 priest", "3 priests", plural(n, "die", "dice"): a count with its word, never "priest(s)". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
