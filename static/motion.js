// Pieces that move (issue 39): the board is redrawn by replacing its nodes, so a piece that
// moved is a new node in a new place. Renderers name their pieces (`data-piece`, stable across
// redraws); `measure` notes where each was before a redraw and `play` slides each from there
// to where it is now (FLIP, with the Web Animations API). A piece new to the board with a
// `data-piece-from` starts where the named piece was (a gem leaving the hand), or drops in from
// just above ("drop"). Nothing waits for an animation: input and the next move go on at once.
// A redraw that moves nothing animates nothing, and one in the middle of a slide carries it on
// from where it is for the time it had left. Off under prefers-reduced-motion.

const DURATION_MS = 320; // within the 150–400 ms a move should take to read, and no longer
const MIN_MS = 150;
const EASING = "cubic-bezier(.2, .75, .3, 1)";
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
const flying = new Map(); // piece name -> when its slide ends (performance.now())

/** Where each named piece inside `root` is now, relative to `root` (null: no motion wanted,
 * or nothing drawn yet: a first drawing is not a move). */
export function measure(root) {
  if (reduced.matches || !root?.firstElementChild) return null;
  const base = root.getBoundingClientRect();
  const found = new Map();
  const twice = new Set();
  for (const el of root.querySelectorAll("[data-piece]")) {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue; // folded away (a closed <details>): nothing to see
    if (found.has(el.dataset.piece)) twice.add(el.dataset.piece);
    found.set(el.dataset.piece, { x: r.left - base.left, y: r.top - base.top, w: r.width, h: r.height });
  }
  for (const name of twice) found.delete(name); // shown twice: which one moved is unknowable
  return found;
}

/** After a redraw of `root`: slide each named piece from where `before` saw it. */
export function play(root, before) {
  if (!before || reduced.matches) return;
  const base = root.getBoundingClientRect();
  const now = performance.now();
  const pieces = [...root.querySelectorAll("[data-piece]")];
  const count = new Map();
  for (const el of pieces) count.set(el.dataset.piece, (count.get(el.dataset.piece) || 0) + 1);
  for (const el of pieces) {
    const name = el.dataset.piece;
    if (count.get(name) > 1) continue;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    const at = { x: r.left - base.left, y: r.top - base.top, w: r.width, h: r.height };
    const from = before.get(name) ?? origin(el, before, at, count);
    if (!from) continue;
    // Centre on centre: a gem in the hand and in a slot need not be the same size.
    const dx = from.x + from.w / 2 - (at.x + at.w / 2);
    const dy = from.y + from.h / 2 - (at.y + at.h / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const left = (flying.get(name) ?? 0) - now;
    const duration = left > 0 ? Math.max(MIN_MS, left) : DURATION_MS;
    flying.set(name, now + duration);
    const scale = from.w && at.w ? Math.min(2, Math.max(0.5, from.w / at.w)) : 1;
    // Added to the piece's own transform (a priest centred on its cell keeps its offset).
    el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
      { transform: "translate(0px, 0px) scale(1)" }], { duration, easing: EASING, composite: "add" });
  }
  for (const [name, end] of flying) if (end < now) flying.delete(name);
}

/** Where a piece new to the board comes from: the first named piece of its `data-piece-from`
 * that was on the board ("tile:*": the first piece so named that has left it), else (or with
 * "drop") just above its place. */
function origin(el, before, at, present) {
  const from = el.dataset.pieceFrom;
  if (from === undefined) return null;
  for (const name of from.split(" ")) {
    if (name.endsWith("*")) {
      const prefix = name.slice(0, -1);
      for (const [was, rect] of before) if (was.startsWith(prefix) && !present.has(was)) return rect;
    } else if (before.has(name)) {
      return before.get(name);
    }
  }
  return { x: at.x, y: at.y - Math.max(24, at.h * 1.5), w: at.w, h: at.h };
}
