// Entry point: a two-page router. `/` is the lobby, `/r/<code>` is a room.

import { checkIdentity } from "./api.js";
import { openLink } from "./devices.js";
import { openLobby } from "./lobby.js";
import { openRoom } from "./room.js";

const root = document.getElementById("app");
let page = null;

function route() {
  page?.dispose?.();
  window.scrollTo(0, 0);
  const match = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  if (location.pathname === "/link") page = openLink(root);
  else page = match ? openRoom(root, decodeURIComponent(match[1])) : openLobby(root);
}

window.addEventListener("popstate", route);
checkIdentity().finally(route);
