// Card labels as text: the standard deck's labels (QH, 10S, Jk) with suit symbols and red suits;
// any other label as it is.
const STANDARD = /^(A|[2-9]|10|J|Q|K)([CDHS])$/;
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function cardFace(label) {
  const m = STANDARD.exec(label);
  if (m) return { rank: m[1], suit: SUITS[m[2]], red: m[2] === "D" || m[2] === "H" };
  if (/^Jk\d*$/.test(label)) return { rank: "Jk", suit: "★", red: false, joker: true };
  return { rank: label, suit: "", red: false };
}

export function cardText(label) {
  const face = cardFace(label);
  return face.rank + face.suit;
}

// A move's text with its cards as shown: "build 6S foundations#6" -> "build 6♠ foundations#6".
export function moveText(text) {
  return text.split(" ").map(word => (STANDARD.test(word) || /^Jk\d*$/.test(word)) ? cardText(word) : word).join(" ");
}

export function isRed(label) {
  return cardFace(label).red;
}

// A card's name read aloud: "queen of hearts", "10 of spades", "joker"; any other label as it is.
const RANKS = { A: "ace", J: "jack", Q: "queen", K: "king" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

export function cardName(label) {
  const m = STANDARD.exec(label);
  if (m) return `${RANKS[m[1]] || m[1]} of ${SUIT_NAMES[m[2]]}`;
  if (/^Jk\d*$/.test(label)) return "joker";
  return label;
}
