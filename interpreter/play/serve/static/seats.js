// The seats around the table, in the order of play from yours: each with its number and name,
// where it sits from you (left, across, right), partner, its marks (dealer), who plays it (you, a
// bot, a person, away), the cards it holds in each of its zones, and whose turn it is.
import { el } from "./dom.js";

let names = {};

export function useNames(given) {
  if (given) names = given;
}

// "P2" or "P2 Ann": a seat as the table names it.
export function seatTitle(seat) {
  const name = names[String(seat)];
  return name ? `P${seat + 1} ${name}` : `P${seat + 1}`;
}

// Where ``seat`` sits from ``me`` at a round table, play going to the left.
export function position(seat, me, players) {
  if (me === null || me === undefined) return "";
  if (players < 3) return players === 2 && seat !== me ? "across" : "";
  const offset = (seat - me + players) % players;
  if (offset === 1) return "left";
  if (offset === players - 1) return "right";
  return players % 2 === 0 && offset === players / 2 ? "across" : "";
}

// Seats in the order of play, starting with the one after yours (yours last).
export function playOrder(me, players) {
  const from = me === null || me === undefined ? 0 : me + 1;
  return Array.from({ length: players }, (_, k) => (from + k) % players);
}

// How many cards each seat holds in each zone of its own: [[zone, count], ...] per seat.
function counts(view) {
  const held = Array.from({ length: view.players }, () => new Map());
  for (const [zone, piles] of Object.entries(view.zones)) {
    piles.forEach((cards, index) => {
      const owner = view.pile_names[zone][index].split("#")[0];
      if (!/^P\d+$/.test(owner)) return;
      const seat = Number(owner.slice(1)) - 1;
      held[seat].set(zone, (held[seat].get(zone) || 0) + cards.length);
    });
  }
  return held;
}

export function drawSeats(message, me, wordsFor) {
  const view = message.view;
  const held = counts(view);
  const box = el("div");
  for (const seat of playOrder(me, view.players)) {
    const chip = el("div", "seat");
    chip.dataset.seat = seat;
    if (seat === me) chip.classList.add("me");
    if (view.current === seat && !view.over) chip.classList.add("to-play");
    const head = el("div", "seat-name", seatTitle(seat));
    const where = [position(seat, me, view.players)];
    if (view.teams && me !== null && seat !== me && view.teams[seat] === view.teams[me]) where.push("partner");
    if (where.some(Boolean)) head.append(el("span", "where", ` (${where.filter(Boolean).join(", ")})`));
    chip.append(head);
    const tags = el("div", "seat-tags");
    for (const mark of (view.marks || [])[seat] || []) tags.append(el("span", "tag mark", mark));
    tags.append(el("span", `tag ${kind(message, seat, me)}`, kind(message, seat, me)));
    if (view.current === seat && !view.over) tags.append(el("span", "tag turn", "to play"));
    chip.append(tags);
    const holding = [...held[seat]].map(([zone, n]) => `${wordsFor("zones", zone)} ${n}`);
    if (holding.length) chip.append(el("div", "seat-counts", holding.join(" · ")));
    box.append(chip);
  }
  return box;
}

// Who plays a seat: "you", "bot", "person" (connected) or "away" (a person not connected).
function kind(message, seat, me) {
  if (seat === me) return "you";
  if (message.bots.includes(seat)) return "bot";
  return message.connected.includes(seat) ? "person" : "away";
}
