// Drawing a table from a view: nothing here knows any game. Zones become piles grouped by owner
// (this seat first, the shared ones in the middle, the others apart), a grid zone a grid of
// slots, dice as dice (where each seat has its own cup, the cup in the seat's area), variables
// and the game's view lines as tables; hidden cards and dice as backs.
import { cardFace, cardName, cardText } from "./cards.js";
import { el } from "./dom.js";
import { morphChildren } from "./morph.js";
import { playOrder, position, seatTitle } from "./seats.js";

export { el };

// The labels of the cards the view's values hold (a card in a variable: {"$card": id}).
let cardLabels = {};

// Stored values come tagged ({"$map": ...}, {"$seat": 0}); undo that for display.
export function plain(value) {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") {
    if ("$map" in value) return Object.fromEntries(Object.entries(value.$map).map(([k, v]) => [k, plain(v)]));
    if ("$seat" in value) return `P${value.$seat + 1}`;
    if ("$card" in value) return cardLabels[value.$card] ? cardText(cardLabels[value.$card]) : "a card";
    if ("$zone" in value) return value.$zone;
    if ("$pairs" in value) return value.$pairs.map(([k, v]) => `${plain(k)}: ${cell(plain(v))}`);
  }
  return value;
}

export function cell(value) {
  if (value === null || value === undefined) return "–";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return value.length ? value.map(cell).join(" ") : "–";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${cell(v)}`).join(", ");
  if (typeof value === "string" && /^(A|[2-9]|10|J|Q|K)[CDHS]$/.test(value)) return cardText(value);
  return String(value);
}

export function seatName(seat) {
  return `P${seat + 1}`;
}

// The game's words for players (the welcome's "words"): a name without words reads with spaces.
let words = { zones: {}, phases: {}, variables: {}, not_shown: [], values: {} };

export function useWords(given) {
  if (given) words = given;
}

export function wordsFor(kind, name) {
  return (words[kind] && words[kind][name]) || String(name).replace(/_/g, " ");
}

function named(values) {
  return Object.fromEntries(Object.entries(values).filter(([k]) => !words.not_shown.includes(k))
    .map(([k, v]) => [wordsFor("variables", k), held(v)]));
}

// A value with its texts (and its map's keys) in the game's words for them (`view: values`).
function held(value) {
  const said = words.values || {};
  if (typeof value === "string") return Object.hasOwn(said, value) ? said[value] : value;
  if (Array.isArray(value)) return value.map(held);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [held(k), held(v)]));
  return value;
}

export function drawCard(label, place, extra) {
  const card = el("div", "card");
  if (place) {
    card.dataset.zone = place[0];
    card.dataset.pile = place[1];
    card.dataset.pos = place[2];
  }
  if (label === null) {
    card.classList.add("back");
    card.setAttribute("aria-label", "a face-down card");
  } else if (label === "") {
    card.classList.add("slot");
    card.setAttribute("aria-label", "an empty place");
  } else {
    card.setAttribute("aria-label", cardName(label));
    const face = cardFace(label);
    if (face.red) card.classList.add("red");
    if (face.joker) card.classList.add("joker");
    card.dataset.label = label;
    card.title = cardText(label);
    const corner = el("span", "corner");
    corner.append(el("span", "rank", face.rank));
    if (face.suit) corner.append(el("span", "small-suit", face.suit));
    card.append(corner);
    if (face.suit) card.append(el("span", "suit", face.suit));
    else card.classList.add("plain");
  }
  if (extra) card.append(el("span", "by", extra));
  return card;
}

// One pile: a run of hidden cards is drawn as one back with its count; visible cards overlap.
function drawPile(view, zone, index, label) {
  const cards = view.zones[zone][index];
  const pile = el("div", "pile");
  pile.dataset.zone = zone;
  pile.dataset.pile = index;
  const number = label.includes("#") ? label.split("#")[1] : "";
  if (number) pile.append(el("div", "pile-name", number));
  const row = el("div", "cards");
  if (view.grids[zone]) {
    const [rows, cols] = view.grids[zone];
    row.className = "grid";
    row.style.gridTemplateColumns = `repeat(${cols}, auto)`;
    for (let k = 0; k < rows * cols; k++) row.append(drawCard(k < cards.length ? cards[k] : "", [zone, index, k]));
  } else {
    const plays = view.tricks && view.tricks.zone === zone ? view.tricks.plays : null;
    if (plays) row.classList.add("trick");      // a trick's cards side by side, each with who played it
    let k = 0;
    while (k < cards.length) {
      if (cards[k] === null) {
        let end = k;
        while (end < cards.length && cards[end] === null) end++;
        const back = drawCard(null, [zone, index, end - 1]);
        if (end - k > 1) back.append(el("span", "count", String(end - k)));
        row.append(back);
        k = end;
      } else {
        const by = plays && plays[k] ? seatName(plays[k][0]) : undefined;
        row.append(drawCard(cards[k], [zone, index, k], by));
        k++;
      }
    }
    if (!cards.length) row.append(el("div", "card slot"));
    const visible = cards.filter(c => c !== null).length;
    if (visible > 5 && !plays) row.classList.add(visible > 10 ? "tight" : "close");
  }
  pile.append(row);
  if (view.taken && view.tricks && view.tricks.zone === zone) pile.append(el("div", "taken", view.taken));
  return pile;
}

// The owner of each pile ("P1", "T2", "" for shared) and the piles of each owner, zone by zone.
// The game's layout hint ``order`` puts some zones first; the others follow as declared.
function zoneOrder(view, layout) {
  const first = ((layout && layout.order) || []).filter(z => z in view.zones);
  return first.concat(Object.keys(view.zones).filter(z => !first.includes(z)));
}

function areasOf(view, layout) {
  const areas = new Map();
  for (const zone of zoneOrder(view, layout)) {
    view.zones[zone].forEach((_, index) => {
      const label = view.pile_names[zone][index];
      const owner = label.split("#")[0];
      if (!areas.has(owner)) areas.set(owner, new Map());
      const zones = areas.get(owner);
      if (!zones.has(zone)) zones.set(zone, []);
      zones.get(zone).push([index, label]);
    });
  }
  return areas;
}

function areaTitle(owner, view) {
  if (owner.startsWith("T") && view.teams) {
    const team = Number(owner.slice(1)) - 1;
    const members = view.teams.map((t, s) => (t === team ? seatName(s) : null)).filter(Boolean);
    return `${owner} (${members.join(" ")})`;
  }
  return owner;
}

// Each seat's cup when every seat has its own dice (a die this seat may not see is null), else
// null: the view's dice are then the table's, a flat list of values.
export function diceCups(view) {
  return view.dice.length && Array.isArray(view.dice[0]) ? view.dice : null;
}

// ``cup``: the seat's dice, drawn in its area (with ``dice``, the choosing state, for your own).
function drawArea(owner, zones, view, message, cup, dice) {
  const area = el("div", "area");
  if (owner) {
    const seat = owner.startsWith("P") ? Number(owner.slice(1)) - 1 : null;
    const title = el("div", "area-title", seat === null ? areaTitle(owner, view) : seatTitle(seat));
    if (seat !== null) {
      area.dataset.seat = seat;
      const where = position(seat, view.seat, view.players);
      if (where) title.append(el("span", "where", ` (${where})`));
      for (const mark of (view.marks || [])[seat] || []) title.append(el("span", "tag mark", mark));
      if (message.bots.includes(seat)) title.append(el("span", "tag", "bot"));
      else if (!message.connected.includes(seat)) title.append(el("span", "tag away", "away"));
      if (view.current === seat && !view.over) area.classList.add("to-play");
    }
    area.append(title);
  }
  // Nothing in sight but backs: the seat strip says as much (a phone leaves such an area out). A
  // seat's cup is always drawn, its hidden dice as backs: how many dice each seat has counts.
  if (!cup && [...zones].every(([z, piles]) => piles.every(([index]) => view.zones[z][index].every(c => c === null)))) {
    area.classList.add("all-hidden");
  }
  const row = el("div", "zones");
  if (cup) row.append(drawCup(cup, Number(area.dataset.seat), dice));
  for (const [zone, piles] of zones) {
    const block = el("div", "zone");
    block.dataset.zone = zone;
    block.append(el("div", "zone-name", wordsFor("zones", zone)));
    const list = el("div", "piles");
    for (const [index, label] of piles) list.append(drawPile(view, zone, index, label));
    block.append(list);
    row.append(block);
  }
  area.append(row);
  return area;
}

// The board drawn afresh off the page, then only what differs changed on it (``morph``).
// ``dice`` says which dice can be chosen and which are chosen.
export function drawBoard(message, board, layout, dice) {
  const view = message.view;
  const mine = view.seat === null ? null : seatName(view.seat);
  const myTeam = view.seat !== null && view.teams ? `T${view.teams[view.seat] + 1}` : null;
  const parts = { others: el("div"), shared: el("div"), mine: el("div") };
  const cups = diceCups(view);
  if (view.dice.length && !cups) parts.shared.append(drawDice(view.dice, dice));
  const lifted = message.last_dice;
  if (cups && lifted && lifted.round < view.round) parts.shared.append(drawLastDice(lifted));
  const areas = areasOf(view, layout);
  if (cups) cups.forEach((_, seat) => { if (!areas.has(seatName(seat))) areas.set(seatName(seat), new Map()); });
  const others = [];
  for (const [owner, zones] of areas) {
    const seat = /^P\d+$/.test(owner) ? Number(owner.slice(1)) - 1 : null;
    const cup = cups && seat !== null ? cups[seat] : null;
    const area = drawArea(owner, zones, view, message, cup, seat === view.seat ? dice : null);
    if (owner === "") parts.shared.append(area);
    else if (owner === mine || owner === myTeam) { area.classList.add("own"); parts.mine.append(area); }
    else others.push([owner, area]);
  }
  // The other seats in the order of play from yours (the one on your left first), teams last.
  const order = playOrder(view.seat, view.players).map(seatName);
  const rank = owner => (order.includes(owner) ? order.indexOf(owner) : order.length);
  others.sort(([a], [b]) => rank(a) - rank(b)).forEach(([, area]) => parts.others.append(area));
  for (const [name, fresh] of Object.entries(parts)) morphChildren(board.querySelector(`#${name}`), fresh);
}

// The table's dice; those a move may throw again are buttons, pressed when chosen.
function drawDice(values, dice) {
  const row = el("div", "area dice-area");
  row.append(el("div", "area-title", "dice"));
  row.append(diceBox(values, dice, null));
  if (dice && dice.action) row.append(dice.action);
  return row;
}

// A seat's cup, as one of the zones of its area: its dice, a die not seen as a back; your own
// may be chosen (``dice``) as the table's are.
function drawCup(values, seat, dice) {
  const block = el("div", "zone cup dice-area");
  block.dataset.seat = seat;
  block.append(el("div", "zone-name", "dice"));
  block.append(diceBox(values, dice, seat));
  if (dice && dice.action) block.append(dice.action);
  return block;
}

// The cups as they were when the last hand ended (lifted at its end), a group per seat.
function drawLastDice(lifted) {
  const area = el("div", "area dice-area last-dice");
  area.append(el("div", "area-title", `dice at the end of round ${lifted.round}`));
  const row = el("div", "zones");
  lifted.dice.forEach((values, seat) => {
    const block = el("div", "zone cup");
    block.append(el("div", "zone-name", seatTitle(seat)), diceBox(values, null, seat, false));
    row.append(block);
  });
  area.append(row);
  return area;
}

// Dice in a row; ``placed`` dice are places of the table (``data-die``, ``data-seat`` with a
// cup per seat), those ``dice`` says may be chosen are buttons.
function diceBox(values, dice, seat, placed = true) {
  const box = el("div", "dice");
  values.forEach((value, k) => {
    if (value === null) {
      const back = el("div", "die back");
      back.setAttribute("aria-label", `die ${k + 1}: hidden`);
      box.append(back);
      return;
    }
    const die = el("div", "die", String(value));
    if (placed) die.dataset.die = k;
    if (placed && seat !== null) die.dataset.seat = seat;
    die.setAttribute("aria-label", `die ${k + 1}: ${value}`);
    if (dice && dice.choosable.has(k)) {
      die.classList.add("source");
      die.setAttribute("role", "button");
      die.setAttribute("aria-pressed", String(dice.chosen.has(k)));
      die.tabIndex = 0;
    }
    if (dice && dice.chosen.has(k)) die.classList.add("chosen");
    box.append(die);
  });
  return box;
}

// Variables and the game's view lines: one table with a column per seat, and the game's own.
export function drawScores(view, live) {
  cardLabels = view.card_labels || {};
  const box = el("div");
  const seats = view.seat_vars.map(v => named(plain(v)));
  const rows = [];
  if (seats.length) {
    for (const [key, value] of Object.entries(seats[0])) {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        for (const sub of Object.keys(value)) rows.push([sub, seats.map(s => (s[key] || {})[sub])]);
      }
    }
    for (const [key, value] of Object.entries(seats[0])) {
      if (!(value && typeof value === "object" && !Array.isArray(value))) rows.push([key, seats.map(s => s[key])]);
    }
  }
  for (const [label, values] of Object.entries(view.shown.seat)) rows.push([label, values.map(plain)]);
  const facts = { ...named(plain(view.vars)), ...Object.fromEntries(Object.entries(view.shown.game).map(([k, v]) => [k, plain(v)])) };
  if (view.tricks) {
    facts.trump = plain(view.tricks.trump);
    facts.led = plain(view.tricks.led);
  }
  const list = el("dl", "facts");
  for (const [key, value] of Object.entries(facts)) list.append(el("dt", "", key), el("dd", "", cell(value)));
  if (Object.keys(facts).length) box.append(list);
  if (rows.length) box.append(table(["", ...seats.map((_, s) => seatName(s))], rows.map(([k, v]) => [k, ...v.map(cell)]), view.seat));
  if (view.teams) {
    const teams = view.team_vars.map(v => named(plain(v)));
    const keys = teams.length ? Object.keys(teams[0]) : [];
    if (keys.length) box.append(table(["", ...teams.map((_, t) => `T${t + 1}`)], keys.map(k => [k, ...teams.map(t => cell(t[k]))])));
  }
  morphChildren(live, box);
}

export function table(header, rows, highlight) {
  const node = el("table", "sheet");
  const head = el("tr");
  header.forEach((h, i) => {
    const th = el("th", i - 1 === highlight ? "me" : "", h);
    head.append(th);
  });
  node.append(head);
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((c, i) => tr.append(el(i ? "td" : "th", i - 1 === highlight ? "me" : "", c)));
    node.append(tr);
  }
  return node;
}
