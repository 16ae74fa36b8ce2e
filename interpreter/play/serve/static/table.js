// The table page: one WebSocket to the server; from every view it sends the table is drawn off
// the page and only what changed is changed on it. Moves by a click on a card then its target, a
// double click, a drag and drop, a click on the dice, or a button of the move list.
import { moveText } from "./cards.js";
import { choosableDice, diceMoveFor, isDiceMove } from "./dice.js";
import { cell, diceCups, drawBoard, drawScores, el, plain, seatName, table, useWords, wordsFor } from "./draw.js";
import { morphChildren } from "./morph.js";
import { drawSeats, seatTitle, useNames } from "./seats.js";
import { HOLD_MS, noteTrick, withTrick } from "./trick.js";

const MAX_RECONNECTS = 30;
const page = {
  socket: null, message: null, pending: null, seat: null, selected: null, dragging: false,
  reconnects: 0, log: [], logBase: 0, welcome: null, dice: new Set(), diceSeen: "",
};
const NAME_KEY = "rules-name";
const $ = id => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.hash.slice(1)).get("token");

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  page.socket = socket;
  socket.onopen = () => {
    page.reconnects = 0;
    const name = savedName();
    socket.send(JSON.stringify(token ? { type: "join", token, ...(name ? { name } : {}) } : { type: "join" }));
    status("online", "online");
  };
  socket.onmessage = event => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (page.refused) return;            // the link is wrong: trying again would not help
    status("offline", "offline");
    if (page.welcome) banner("The connection to the table is lost: reconnecting…");
    if (page.reconnects++ < MAX_RECONNECTS) setTimeout(connect, Math.min(500 * 2 ** page.reconnects, 10000));
    else banner("The table cannot be reached. Reload the page to try again.");
  };
}

// The name this browser gave last (kept for the next table), and a new one sent to the table.
function savedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}

function setUpName() {
  const input = $("name");
  input.value = savedName();
  input.addEventListener("change", () => {
    const name = input.value.trim().replace(/\s+/g, " ");
    try { localStorage.setItem(NAME_KEY, name); } catch { /* a private window keeps nothing */ }
    if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "name", name }));
  });
}

function banner(text) {
  const node = $("banner");
  node.textContent = text || "";
  node.hidden = !text;
}

function status(text, cls) {
  const node = $("status");
  node.textContent = text;
  node.className = `status ${cls}`;
}

function receive(message) {
  if (message.type === "welcome") {
    if (page.welcome) { banner(""); toast("Back online", "go"); }
    page.welcome = message;
    useWords(message.words);
    drawRules(message.words);
    page.seat = message.seat;
    page.log = [];
    $("name").hidden = message.seat === null;
    document.title = `${message.game}${message.seat === null ? " (watching)" : ` — ${seatName(message.seat)}`}`;
  } else if (message.type === "state") {
    // The log's lines from number log_from on: after a (re)join only the last ones come, so the
    // page keeps the number of its first line (logBase), for the numbers to stay the log's own.
    if (!page.log.length) page.logBase = message.log_from;
    page.log = page.log.slice(0, Math.max(0, message.log_from - page.logBase)).concat(message.log);
    if (page.message && page.message.paused && !message.paused && !message.view.over) toast("Go!", "go");
    useNames(message.names);
    if (noteTrick(message.last_trick)) setTimeout(() => { if (!page.dragging) show(page.message); }, HOLD_MS + 50);
    if (page.dragging) page.pending = message;
    else show(message);
  } else if (message.type === "presence") {
    // Who is connected changed: the last table, with the new list (nothing else changed).
    for (const last of [page.message, page.pending]) if (last) { last.connected = message.connected; last.names = message.names; }
    useNames(message.names);
    if (page.message && !page.dragging) show(page.message);
  } else if (message.type === "stopped") {
    toast(message.reason, "bad");
    status("stopped", "offline");
  } else if (message.type === "tabs") {
    const note = $("tabs");
    note.textContent = message.open > 1 ? `This seat is open in ${message.open} tabs or windows: a move from any of them counts.` : "";
    note.hidden = message.open <= 1;
  } else if (message.type === "rematch") {      // everyone plays again, at a new table: the same seat
    page.refused = true;
    location.replace(`/t/${message.table}${token ? `#token=${token}` : ""}`);
  } else if (message.type === "refused") {
    toast(message.reason, "bad");
  } else if (message.type === "error") {
    toast(message.error, "bad");
    if (!page.welcome) refusedJoin(message.error);
  }
}

function show(message) {
  page.message = message;
  const view = message.view;
  $("title").textContent = view.game;
  $("you").textContent = page.seat === null ? "watching" : `you are ${seatTitle(page.seat)}`;
  const phase = wordsFor("phases", view.phase);
  $("flow").textContent = view.over ? "game over" : `round ${view.round} · ${phase}`;
  $("who").textContent = view.over || message.stopped ? "" : view.current === null
    ? (phase.toLowerCase().includes("everyone plays at once") ? "" : "everyone plays at once")   // said once
    : view.current === page.seat ? "your turn" : `${seatName(view.current)} to play`;
  $("who").className = view.current !== null && view.current === page.seat && !message.stopped ? "your-turn" : "";
  // Between hands the board shows how the hand ended (the next one waits under the overlay).
  const board = message.paused && message.hand_end ? { ...message, view: { ...message.hand_end, moves: [] } }
    : { ...message, view: withTrick(view, message.last_trick) };
  const focused = focusedPlace();
  keepDice();
  morphChildren($("seats"), drawSeats(board, page.seat, wordsFor));
  drawBoard(board, $("board"), page.welcome && page.welcome.layout, diceState());
  drawScores(board.view, $("scores"));
  drawLog();
  keepSelection();
  drawMoves();
  markSources();
  refocus(focused);
  drawOverlay(message);
  document.body.dataset.version = message.version;     // what a test (or a curious person) can wait for
}

// The game's rules in brief and its legend, one click away.
function drawRules(words) {
  if (!words || (!words.summary && !Object.keys(words.legend || {}).length)) return;
  $("rules-summary").textContent = words.summary || "";
  $("legend").replaceChildren(...Object.entries(words.legend || {}).flatMap(([mark, meaning]) =>
    [el("dt", "", mark), el("dd", "", meaning)]));
  $("rules").hidden = false;
}

// The card or pile that has the keyboard's focus, kept across a redraw of the board.
function focusedPlace() {
  const node = document.activeElement;
  if (!node || !node.closest || !node.closest("#board")) return null;
  return node.classList.contains("card") ? ["card", ...placeOf(node)] : node.classList.contains("pile") ? ["pile", ...placeOf(node)] : null;
}

function refocus(place) {
  if (!place) return;
  const [kind, z, p, k] = place;
  const node = $("board").querySelector(kind === "card"
    ? `.card[data-zone="${z}"][data-pile="${p}"][data-pos="${k}"]` : `.pile[data-zone="${z}"][data-pile="${p}"]`);
  if (node) node.focus();
}

function drawLog() {
  const list = $("log");
  const shown = page.log.slice(-150);
  const fresh = el("ol");
  fresh.append(...shown.map(line => el("li", "", moveText(line))));
  const start = page.logBase + page.log.length - shown.length + 1;        // the numbers are the log's own
  if (list.start !== start || list.children.length !== shown.length) {
    list.start = start;
    morphChildren(list, fresh);
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  }
}

// -- moves ---------------------------------------------------------------------------------------
function moves() {
  return page.message ? page.message.view.moves : [];
}

// A move as the seat reads it (the server sends each legal move's words beside its notation).
function wordsOf(move) {
  const index = moves().indexOf(move);
  const said = page.message && page.message.move_words;
  return said && index >= 0 && said[index] ? said[index] : move;
}

// What the move would score now (a scoring choice: "+28"), where the server gives it.
function previewOf(move) {
  const index = moves().indexOf(move);
  const previews = page.message && page.message.previews;
  return previews && index >= 0 ? previews[index] : null;
}

function spots(move) {
  return page.message.spots[move] || [];
}

function placeOf(node) {
  const z = node.dataset.zone, p = Number(node.dataset.pile);
  return node.dataset.pos === undefined ? [z, p] : [z, p, Number(node.dataset.pos)];
}

// Does a move's spot (a pile, or a card in a pile) name the place clicked (a card or a pile)?
function matches(spot, place) {
  if (!spot || spot[0] !== place[0] || spot[1] !== place[1]) return false;
  return spot.length === 2 || (place.length === 3 && spot[2] === place[2]);
}

function startingAt(place) {
  return moves().filter(m => matches(spots(m)[0], place));
}

function send(move) {
  if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return toast("not connected", "bad");
  page.socket.send(JSON.stringify({ type: "move", move, version: page.message.version }));
  page.selected = null;
  page.dice = new Set();
}

function clicked(node) {
  const place = placeOf(node);
  if (page.selected) {
    const chosen = startingAt(page.selected).filter(m => matches(spots(m)[1], place));
    if (chosen.length === 1) return send(chosen[0]);
    if (chosen.length > 1) return select(page.selected, chosen);
    if (page.selected.join() === place.join()) return select(null);
  }
  let from = startingAt(place);
  if (!from.length && place.length === 3) from = startingAt(place.slice(0, 2));
  if (!from.length) return select(null);
  const whole = from.filter(m => spots(m).length === 1);
  if (from.length === 1 && whole.length === 1) return send(from[0]);
  select(matches(spots(from[0])[0], place) && spots(from[0])[0].length === 3 ? place : spots(from[0])[0], from);
}

function select(place, only) {
  page.selected = place;
  page.only = only || null;
  drawMoves();
  markSources();
}

function keepSelection() {
  if (page.selected && !startingAt(page.selected).length) page.selected = null;
  page.only = null;
}

// The move list (the fallback to playing on the board): moves grouped by name, each with its
// words and what it would score; the moves that choose dice are made by clicking the dice.
function drawMoves() {
  const all = moves();
  const shown = (page.only || (page.selected ? startingAt(page.selected) : all)).filter(m => !isDiceMove(spots(m)));
  const box = el("div");
  const message = page.message;
  if (page.seat === null) box.append(el("p", "hint", "You are watching."));
  else if (!all.length) box.append(el("p", "hint", message && message.stopped ? "The table has stopped."
    : message && message.view.over ? "The game is over." : "No move for you now."));
  if (all.some(m => isDiceMove(spots(m)))) box.append(el("p", "hint", "Click the dice you want to throw again."));
  const groups = new Map();
  for (const move of shown) {
    const name = move.split(" ")[0];
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(move);
  }
  for (const list of groups.values()) {
    const row = el("div", "move-group");
    for (const move of list) row.append(moveButton(move));
    box.append(row);
  }
  if (page.selected) box.append(el("button", "cancel", "cancel"));
  morphChildren($("moves"), box);
}

function moveButton(move, cls = "move") {
  const button = el("button", cls, moveText(wordsOf(move)));
  const preview = previewOf(move);
  if (preview) button.append(el("span", "preview", preview));
  button.dataset.move = move;
  return button;
}

// -- dice ------------------------------------------------------------------------------------------
// The dice chosen stay chosen across updates while the dice and the moves stay as they were.
function keepDice() {
  const seen = page.message ? JSON.stringify([page.message.view.dice, moves()]) : "";
  if (seen !== page.diceSeen) page.dice = new Set();
  page.diceSeen = seen;
}

// The dice a move of this seat chooses among: the table's, or with a cup per seat its own.
function diceState() {
  const cups = diceCups(page.message.view);
  const values = cups ? (page.seat === null ? [] : cups[page.seat]) : page.message.view.dice;
  const choosable = page.seat === null ? new Set() : choosableDice(moves(), spots);
  let action = null;
  if (page.dice.size) {
    const move = diceMoveFor(page.dice, values, moves(), spots);
    action = move ? moveButton(move, "move dice-go") : el("p", "hint", "No move throws just these dice.");
  }
  return { choosable, chosen: page.dice, action };
}

function toggleDie(k) {
  if (!choosableDice(moves(), spots).has(k)) return;
  if (page.dice.has(k)) page.dice.delete(k);
  else page.dice.add(k);
  show(page.message);
}

// Sources are cards and piles a move starts from; with a selection, its targets are lit.
function markSources() {
  const board = $("board");
  board.querySelectorAll(".card, .pile").forEach(n => n.classList.remove("source", "target", "selected"));
  const targets = page.selected ? startingAt(page.selected).map(m => spots(m)[1]).filter(Boolean) : [];
  for (const node of board.querySelectorAll(".card[data-zone], .pile")) {
    const place = placeOf(node);
    const isCard = node.classList.contains("card");
    if (startingAt(place).length) node.classList.add("source");
    if (isCard && !node.classList.contains("back") && startingAt(place.slice(0, 2)).length) node.draggable = true;
    if (isCard && startingAt(place).length) node.draggable = true;
    // A pile target lights the pile; a card target (a card spot) lights that card.
    if (targets.some(t => t.length === place.length && matches(t, place))) node.classList.add("target");
    if (node.classList.contains("source") || node.classList.contains("target")) node.tabIndex = 0;
  }
  if (page.selected) {
    const [z, p, k] = page.selected;
    const node = board.querySelector(page.selected.length === 3
      ? `.card[data-zone="${z}"][data-pile="${p}"][data-pos="${k}"]` : `.pile[data-zone="${z}"][data-pile="${p}"]`);
    if (node) node.classList.add("selected");
  }
}

// -- drag and drop ---------------------------------------------------------------------------------
// The places a drop lands on: the card under the pointer (if any) and its pile.
function placesAt(target) {
  const card = target.closest(".card[data-zone]"), pile = target.closest(".pile");
  return [card && placeOf(card), pile && placeOf(pile)].filter(Boolean);
}

function dropped(target) {
  const places = placesAt(target);
  return page.selected ? startingAt(page.selected).filter(m => places.some(p => matches(spots(m)[1], p))) : [];
}

function setUpBoard() {
  const board = $("board");
  board.addEventListener("click", event => {
    if (page.seat === null) return;
    const go = event.target.closest("button[data-move]");
    if (go) return send(go.dataset.move);
    const die = event.target.closest(".die.source");
    if (die) return toggleDie(Number(die.dataset.die));
    const node = event.target.closest(".card[data-zone]") || event.target.closest(".pile");
    if (node) clicked(node);
  });
  $("moves").addEventListener("click", event => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.move) send(button.dataset.move);
    else if (button.classList.contains("cancel")) select(null);
  });
  // A card with one legal move goes there on a double click (the first click chose it).
  board.addEventListener("dblclick", event => {
    const card = event.target.closest(".card[data-zone]");
    if (!card || page.seat === null) return;
    const place = placeOf(card);
    const from = startingAt(place).length ? startingAt(place) : startingAt(place.slice(0, 2));
    if (from.length === 1) send(from[0]);
  });
  // The keyboard: Tab reaches every card and pile a move starts from or goes to; Enter or space
  // picks it, as a click does.
  board.addEventListener("keydown", event => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (page.seat === null || event.target.closest("button")) return;
    const die = event.target.closest(".die.source");
    const node = event.target.closest(".card[data-zone]") || event.target.closest(".pile");
    if (!die && !node) return;
    event.preventDefault();
    if (die) toggleDie(Number(die.dataset.die));
    else clicked(node);
  });
  board.addEventListener("dragstart", event => {
    const card = event.target.closest(".card[data-zone]");
    if (!card) return;
    let place = placeOf(card);
    if (!startingAt(place).length) place = place.slice(0, 2);
    if (!startingAt(place).length) return event.preventDefault();
    page.dragging = true;
    event.dataTransfer.setData("text/plain", JSON.stringify(place));
    event.dataTransfer.effectAllowed = "move";
    select(place);
  });
  board.addEventListener("dragover", event => {
    if (dropped(event.target).length) event.preventDefault();
  });
  board.addEventListener("drop", event => {
    event.preventDefault();
    const chosen = dropped(event.target);
    if (chosen.length === 1) send(chosen[0]);
    else if (chosen.length > 1) select(page.selected, chosen);
  });
  board.addEventListener("dragend", () => {
    page.dragging = false;
    if (page.pending) { const message = page.pending; page.pending = null; show(message); }
  });
}

// A join refused (a wrong or expired link): said on the page, and no endless reconnecting.
function refusedJoin(error) {
  page.refused = true;
  status("not joined", "offline");
  $("title").textContent = "Cannot join this table";
  $("panel").replaceChildren(el("h2", "", "Cannot join this table"), el("p", "", error),
    el("p", "hint", "Check the link, or ask the host for a new one."));
  $("overlay").hidden = false;
}

// -- between hands, and the end ---------------------------------------------------------------------
function drawOverlay(message) {
  const overlay = $("overlay"), panel = $("panel");
  const view = message.view;
  if (message.stopped) {           // nothing more is played here: the host restarts the table
    panel.replaceChildren(el("h2", "", "The table has stopped"), el("p", "", message.stopped), closeButton(overlay));
    overlay.hidden = page.closedFinal === true;
    return;
  }
  if (message.final) {
    panel.replaceChildren(el("h2", "", outcome(message.final)),
      table(["seat", "place", "score", "result"], message.final.map(r =>
        [seatName(r.seat) + (r.seat === page.seat ? " (you)" : ""), String(r.place), cell(r.score), typeof r.result === "number" && r.result > 0 ? `+${r.result}` : cell(r.result)])),
      ...breakdown(message), ...rematch(message), closeButton(overlay));
    overlay.hidden = page.closedFinal === true;
    return;
  }
  if (!message.paused) { overlay.hidden = true; return; }
  const waiting = message.people.filter(s => !message.ready.includes(s));
  const first = !message.hand_end && view.round === 1;      // the first hand waits for everyone too
  const parts = [el("h2", "", first ? "Ready to play?" : `End of round ${message.hand_end ? message.hand_end.round : view.round - 1}`)];
  if (message.hand_end) {          // the hand's last position, as this seat saw it: its public values
    const values = el("div", "hand-values");
    drawScores(message.hand_end, values);
    parts.push(values);
  }
  parts.push(...breakdown(message));
  parts.push(el("p", "", waiting.length ? `Waiting for ${waiting.map(seatName).join(", ")}` : ""));
  if (page.seat !== null && !message.ready.includes(page.seat)) {
    const ready = el("button", "ready", first ? "Ready" : "Ready for the next hand");
    ready.onclick = () => page.socket.send(JSON.stringify({ type: "ready" }));
    parts.push(ready);
  } else if (page.seat !== null) {
    parts.push(el("p", "hint", "You are ready."));
  }
  panel.replaceChildren(...parts);
  overlay.hidden = false;
}

// Play again: everyone who plays asks, then all move to a new table (the same seats).
function rematch(message) {
  const waiting = message.people.filter(s => !message.rematch.includes(s));
  const parts = [];
  if (page.seat !== null && !message.rematch.includes(page.seat)) {
    const again = el("button", "ready rematch", "Play again");
    again.onclick = () => page.socket.send(JSON.stringify({ type: "rematch" }));
    parts.push(again);
  }
  if (message.rematch.length && waiting.length) {
    parts.push(el("p", "hint", `${message.rematch.map(seatTitle).join(", ")} would play again; waiting for ${waiting.map(seatTitle).join(", ")}`));
  }
  return parts;
}

// "You won", "You came 2nd of 3" (a shared place says so), or for a spectator "Game over".
function outcome(final) {
  const mine = final.find(r => r.seat === page.seat);
  if (!mine) return "Game over";
  const shared = final.filter(r => r.place === mine.place).length > 1;
  if (mine.place === 1) return shared ? "You won, tied" : "You won";
  const nth = ["", "1st", "2nd", "3rd"][mine.place] || `${mine.place}th`;
  return `You came ${nth}${shared ? ", tied" : ""} of ${final.length}`;
}

// The hand's named score parts: a row per part, a column per seat (per team in a game of teams).
function breakdown(message) {
  const parts = message.hand_parts || {};
  const labels = Object.keys(parts);
  if (!labels.length) return [];
  const teams = message.view.teams;
  const owners = [];
  parts[labels[0]].forEach((_, seat) => {
    const name = teams ? `T${teams[seat] + 1}` : seatName(seat);
    if (!owners.some(([n]) => n === name)) owners.push([name, seat]);
  });
  return [el("h3", "", "The hand"),
          table(["", ...owners.map(([name]) => name)], labels.map(l => [l, ...owners.map(([, s]) => cell(plain(parts[l][s])))]))];
}

function closeButton(overlay) {
  const button = el("button", "cancel", "look at the table");
  button.onclick = () => { page.closedFinal = true; overlay.hidden = true; };
  return button;
}

let toastTimer = null;
function toast(text, cls) {
  const node = $("toast");
  node.textContent = moveText(text);
  node.className = cls;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { node.hidden = true; }, cls === "go" ? 1200 : 3500);
}

setUpBoard();
setUpName();
connect();
