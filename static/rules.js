// Rules help: a game's rules (GET /api/games/{id}/rules, markdown) in a dialog, built as DOM
// nodes from a small markdown subset — never as HTML — with reconstructions marked.

import { api } from "./api.js";
import { h, toast } from "./ui.js";

const cache = new Map();

/** A button that opens the rules of `gameId`. */
export function rulesButton(gameId, label = "Rules", extraClass = "") {
  return h("button", { type: "button", class: `btn ghost small rules-btn ${extraClass}`.trim(),
                       "data-testid": "rules-button", "data-key": `rules-${gameId}`,
                       onclick: () => openRules(gameId) }, label);
}

/** "Learn by playing": the game's tutorial (/learn/<game id>), a real board step by step. */
export function learnLink(gameId, extraClass = "") {
  return h("a", { class: `btn small learn-link ${extraClass}`.trim(), href: `/learn/${encodeURIComponent(gameId)}`,
                  "data-testid": "learn-link" }, "Learn by playing");
}

export async function openRules(gameId) {
  let rules;
  try {
    if (!cache.has(gameId)) cache.set(gameId, await api("GET", `/api/games/${encodeURIComponent(gameId)}/rules`));
    rules = cache.get(gameId);
  } catch (err) {
    toast(`Could not load the rules: ${err.message}`);
    return;
  }
  document.querySelector("dialog.rules-dialog")?.remove();
  const dialog = h("dialog", { class: "dialog rules-dialog", "data-testid": "rules", "aria-label": `${rules.title} rules` },
    h("div", { class: "rules-head" },
      h("span", { class: "hint" }, rules.source === "summary" ? "How to play" : "Rules as implemented"),
      learnLink(gameId),
      h("button", { class: "btn small", "data-testid": "rules-close", onclick: () => dialog.close() }, "Close")),
    h("div", { class: "rules-body" }, markdown(rules.markdown)));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** Headings, paragraphs, bullet and numbered lists (one level of nesting), tables, and inline
 *  **bold**, *italic* and `code`. Enough for the games' RULES.md and HOW_TO_PLAY.md. */
export function markdown(text) {
  const out = [];
  const lines = text.replace(/\r/g, "").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(marked(h(`h${Math.min(6, heading[1].length + 1)}`, {}, inline(heading[2])), heading[2]));
      i += 1;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      out.push(table(rows));
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const block = [];
      while (i < lines.length && lines[i].trim() && (/^\s*([-*]|\d+\.)\s/.test(lines[i]) || /^\s+\S/.test(lines[i]))) {
        block.push(lines[i++]);
      }
      out.push(list(block));
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#|\||\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++]);
      const joined = para.join(" ");
      out.push(marked(h("p", {}, inline(joined)), joined));
    }
  }
  return out;
}

function list(block) {
  const ordered = /^\d+\./.test(block[0].trim());
  const root = h(ordered ? "ol" : "ul", {});
  let item = null;
  let itemText = "";
  let nested = [];
  const flush = () => {
    if (!item) return;
    item.append(...inline(itemText));
    if (nested.length) item.append(list(nested.map((l) => l.replace(/^\s+/, ""))));
    root.append(marked(item, itemText));
  };
  for (const line of block) {
    const top = /^([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (top) {
      flush();
      item = h("li", {});
      itemText = top[2];
      nested = [];
    } else if (/^\s+([-*]|\d+\.)\s/.test(line)) {
      nested.push(line);
    } else if (nested.length) {
      nested[nested.length - 1] += ` ${line.trim()}`;
    } else {
      itemText += ` ${line.trim()}`;
    }
  }
  flush();
  return root;
}

function table(rows) {
  const cells = (row) => row.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const body = rows.filter((r, n) => n !== 1 || !/^\|[\s:|-]+\|?$/.test(r));
  const [head, ...rest] = body;
  return h("div", { class: "rules-table" }, h("table", {},
    h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", {}, inline(c))))),
    h("tbody", {}, rest.map((r) => marked(h("tr", {}, cells(r).map((c) => h("td", {}, inline(c)))), r)))));
}

/** Mark anything that says it is a reconstruction of a lost or silent rule. */
function marked(el, source) {
  if (/reconstruct|not in the book/i.test(source)) {
    el.classList.add("reconstruction");
    el.dataset.testid = "reconstruction";
  }
  return el;
}

function inline(text) {
  const parts = [];
  const re = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/g;
  let last = 0;
  for (const match of text.matchAll(re)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("**")) parts.push(h("strong", {}, token.slice(2, -2)));
    else if (token.startsWith("`")) parts.push(h("code", {}, token.slice(1, -1)));
    else parts.push(h("em", {}, token.slice(1, -1)));
    last = match.index + token.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
