// Marking a move's place on a game's board: a renderer's `targets(move, view)` lists the CSS
// selectors of what to click for it, in order. Tutorials mark the step's move, hints the
// computer's suggestion.

/** The selectors of `move` on the renderer's board ([]: the renderer cannot say). */
export function targetsOf(renderer, move, view) {
  try {
    return move && renderer.targets ? renderer.targets(move, view) : [];
  } catch {
    return [];
  }
}

/** Mark the elements `selectors` find inside `board` with the class `kind`; the first one found. */
export function markTargets(board, selectors, kind = "learn-target") {
  for (const el of board.querySelectorAll(`.${kind}`)) el.classList.remove(kind);
  let first = null;
  for (const selector of selectors) {
    for (const el of board.querySelectorAll(selector)) {
      el.classList.add(kind);
      first ??= el;
    }
  }
  return first;
}
