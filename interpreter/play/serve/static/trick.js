// The trick just taken stays in sight a moment where it was played, with who took it; after that
// a line under the empty trick says what the last trick was.
import { cardText } from "./cards.js";
import { seatTitle } from "./seats.js";

export const HOLD_MS = 1800;

const held = { key: undefined, until: 0 };

// Note a state's last trick; true when it is new (a trick was just taken), to hold it.
export function noteTrick(lastTrick) {
  const key = lastTrick ? JSON.stringify(lastTrick) : null;
  const fresh = held.key !== undefined && key !== null && key !== held.key;   // not on the page's first state
  held.key = key;
  if (fresh) held.until = Date.now() + HOLD_MS;
  return fresh;
}

// The view to draw: while a trick is held, the taken trick in its place; after that, while the
// trick is empty, a line saying what the last one was.
// (Held even when the next trick was led at once, by a bot: its first card shows a moment later.)
export function withTrick(view, lastTrick) {
  if (!view.tricks || !lastTrick) return view;
  const took = lastTrick.winner === null ? "" : seatTitle(lastTrick.winner);
  if (Date.now() >= held.until) {
    if (view.zones[view.tricks.zone].some(cards => cards.length)) return view;
    const cards = lastTrick.plays.map(([, label]) => (label ? cardText(label) : "?")).join(" ");
    return { ...view, taken: took ? `last trick: ${cards}, taken by ${took}` : `last trick: ${cards}` };
  }
  const zones = { ...view.zones, [view.tricks.zone]: [lastTrick.plays.map(([, label]) => label)] };
  return { ...view, zones, tricks: { ...view.tricks, plays: lastTrick.plays }, taken: took ? `${took} takes the trick` : "" };
}
