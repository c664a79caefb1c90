// Entry point: a small router. `/` is the lobby, `/r/<code>` a room, `/learn/<game>` a tutorial.

import { checkIdentity } from "./api.js";
import { openLearn } from "./learn.js";
import { openLobby } from "./lobby.js";
import { openRoom } from "./room.js";

const root = document.getElementById("app");
let page = null;

function route() {
  page?.dispose?.();
  window.scrollTo(0, 0);
  const match = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  const learn = location.pathname.match(/^\/learn\/([^/]+)\/?$/);
  page = match ? openRoom(root, decodeURIComponent(match[1]))
    : learn ? openLearn(root, decodeURIComponent(learn[1]))
    : openLobby(root);
}

window.addEventListener("popstate", route);
checkIdentity().finally(route);
