// Dice chosen by clicking them: the moves that choose some of the dice (which to throw again),
// the dice such a move may choose, and the one move that chooses exactly the dice picked.

export function isDiceMove(spots) {
  return spots.length > 0 && spots.every(spot => spot[0] === "#die");
}

export function choosableDice(moves, spotsOf) {
  return new Set(moves.filter(m => isDiceMove(spotsOf(m))).flatMap(m => spotsOf(m).map(spot => spot[1])));
}

// The dice move whose dice show the same values as the chosen dice (which of two equal dice is
// chosen makes no difference), or null.
export function diceMoveFor(chosen, values, moves, spotsOf) {
  const key = list => list.map(k => values[k]).sort((a, b) => a - b).join(" ");
  const wanted = key([...chosen]);
  return moves.find(m => isDiceMove(spotsOf(m)) && key(spotsOf(m).map(spot => spot[1])) === wanted) || null;
}
