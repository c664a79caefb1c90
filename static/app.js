// Entry point: the router. `/` is the lobby, `/r/<code>` is a room, `/p/<id>` a player's
// profile, `/friends` your friends, `/learn/<game>` a tutorial, `/link` a device's sign-in.

import { checkIdentity } from "./api.js";
import { openLink } from "./devices.js";
import { openLearn } from "./learn.js";
import { openLobby } from "./lobby.js";
import { openRoom } from "./room.js";
import { openFriends } from "./friends.js";
import { openProfile } from "./profile.js";

const root = document.getElementById("app");
let page = null;

function route() {
  page?.dispose?.();
  window.scrollTo(0, 0);
  const match = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  const profile = location.pathname.match(/^\/p\/([^/]+)\/?$/);
  const learn = location.pathname.match(/^\/learn\/([^/]+)\/?$/);
  page = location.pathname === "/link" ? openLink(root)
    : match ? openRoom(root, decodeURIComponent(match[1]))
    : learn ? openLearn(root, decodeURIComponent(learn[1]))
    : profile ? openProfile(root, decodeURIComponent(profile[1]))
    : /^\/friends\/?$/.test(location.pathname) ? openFriends(root)
    : openLobby(root);
}

window.addEventListener("popstate", route);
checkIdentity().finally(route);
