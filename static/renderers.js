// Loading a game's renderer (static/games/<id>.js) and its stylesheet, for any page that draws
// a board. Falls back to the generic renderer when a game has none.

import { h } from "./ui.js";

/** A renderer's own stylesheet, loaded once, before its first drawing (no unstyled flash). */
function loadStylesheet(href) {
  if (document.querySelector(`link[rel=stylesheet][href="${CSS.escape(href)}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href, onload: resolve, onerror: resolve });
    document.head.append(link);
    setTimeout(resolve, 3000);
  });
}

export async function loadRenderer(gameId) {
  try {
    const renderer = (await import(`/static/games/${gameId}.js`)).default;
    if (renderer.stylesheet) await loadStylesheet(renderer.stylesheet);
    return renderer;
  } catch (err) {
    console.warn(`no renderer for ${gameId}, using the generic one`, err);
    return (await import("/static/games/generic.js")).default;
  }
}
