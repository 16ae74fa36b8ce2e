"""The line mode of `rules play` (a pipe, or --plain): numbers refer to the list just shown, a
lost race names who took the move, no move crosses a hand, cards typed as shown, several people
at one terminal in turns, the other seats' private moves in public form."""
from __future__ import annotations

from click.testing import CliRunner

from cli import main
from interpreter.play.card_text import card_text, typed_text
from interpreter.play.session import Session
from tests.helpers import GAMES, load
from tests.test_realtime import GRAB

# Grab played in two hands: a number typed in one hand must never be played in the next.
GRAB_TWO_HANDS = GRAB.replace("  rounds: 1\n", "  rounds: 2\n  round_start:\n"
                              "    - move: flatten([p.bag.cards for p in players])\n      to: pot\n")
RACE = ["-p", "2", "--bot", "priority", "--bot-speed", "1", "--fake-clock", "1.5", "--seed", "2"]


def _play(tmp_path, monkeypatch, args, typed, text=GRAB_TWO_HANDS):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grab.yaml").write_text(text)
    return CliRunner().invoke(main, ["play", "grab.yaml", *args], input=typed)


def test_a_refused_number_is_never_reused_the_list_is_shown_numbered_afresh(tmp_path, monkeypatch):
    result = _play(tmp_path, monkeypatch, RACE, "5\n5\n")
    assert result.exit_code == 1, result.output       # the input ended before the game
    out = result.output
    # 5 was 'take c5' (taken by P2 at 0.9 s); shown afresh, 5 is 'take c6', which P2 also took.
    assert ("P1> P2: take c5\ntoo slow: P2 played 'take c5' 0.6 s earlier\n== Grab: round 1, grab ==\n"
            "pot: c1 c2 c3 c4 c6\n") in out
    assert "  5. take c6\n  6. look\nP1> P2: take c1\nP2: take c6\ntoo slow: P2 played 'take c6' 0.3 s earlier\n" in out
    assert "P1: take" not in out


def test_no_move_crosses_a_hand_and_every_person_is_ready_before_go(tmp_path, monkeypatch):
    result = _play(tmp_path, monkeypatch, RACE, "5\n5\ntake c3\ntake c2\n\ntake c3\n")
    assert result.exit_code == 1, result.output       # the input ended before the game
    out = result.output
    assert ("  1. take c2\n  2. look\nP1> P2: take c2\n== end of round 1 ==\npot: (empty)\nbag P1 (you): c3\n"
            "bag P2: c5 c1 c6 c4 c2\nthe hand ended before your move; it was not played\n"
            "== hand over: round 2 is next ==\n"
            "P1: press Enter when ready for the next hand Go!\n== Grab: round 2, grab ==\n") in out
    # The bots wait for "Go": the new hand starts with the whole pot.
    assert "Go!\n== Grab: round 2, grab ==\npot: c3 c5 c1 c6 c4 c2\n" in out
    assert out.count("P1: take c2") == 0


def test_an_ambiguous_entry_is_answered_as_ambiguous_not_as_too_slow(tmp_path, monkeypatch):
    result = _play(tmp_path, monkeypatch, RACE, "take\n")
    assert "P1> error: 'take' could be any of: take c1, take c2, take c3, take c4, take c5, take c6\n" \
           "hint: type more of the move\n" in result.output
    assert "too slow" not in result.output


def test_the_line_mode_is_the_same_for_the_same_seed_and_fake_clock(tmp_path, monkeypatch):
    typed = "5\n5\ntake c3\ntake c2\n\ntake c3\n\n\n"
    first = _play(tmp_path, monkeypatch, RACE, typed)
    second = _play(tmp_path, monkeypatch, RACE, typed)
    assert first.exit_code == 1 and first.output == second.output      # the input ended before the game


def test_cards_may_be_typed_as_shown_or_as_written():
    assert typed_text("shift 5♠ 10♥ work[P1]#1") == "shift 5S 10H work[P1]#1"
    assert typed_text("play Jk★") == "play Jk"
    loaded = load("last_card")
    session = Session(loaded, 2, 3, "random", {0})
    move = next(m for m in session.legal(0) if m.name == "play")
    label = move.text.split()[1]
    assert session.resolve(0, f"play {card_text(label)}") == move
    assert session.resolve(0, f"PLAY {label.lower()}") == move


def test_people_sharing_a_terminal_in_turns_hand_it_over():
    typed = "throw\nscore ones\n\nthrow\nscore ones\n"
    result = CliRunner().invoke(main, ["play", str(GAMES / "dice_poker.yaml"), "-p", "3", "--human", "1,2",
                                       "--seed", "4", "--bot", "random"], input=typed)
    assert result.exit_code == 1, result.output       # the input ended before the game
    out = result.output
    assert "P1> P1: score ones\npass to P2, press Enter == Dice poker: round 1, Throwing and scoring, P2 to play ==\n" in out
    assert "P2> P2: score ones\n== end of round 1 ==\nDice: " in out
    assert "\nP3: throw all five dice\nP3: throw 5 5 again\n" in out
    assert out.rstrip().endswith("pass to P1, press Enter \n"
                                 "input ended before the game was over: the game is not finished.\nseed 4")


def test_several_people_at_one_keyboard_in_free_play_are_pointed_to_network_play():
    result = CliRunner().invoke(main, ["play", str(GAMES / "nerts.yaml"), "--human", "1,2"])
    assert result.exit_code == 1
    assert result.output == (
        "error: several people cannot share one keyboard in free play, where everyone moves at once; "
        "play together over the network (rules serve), each at their own screen, or choose one seat "
        "with --human\n")


def test_the_others_private_moves_are_shown_in_public_form_and_tricks_are_announced():
    typed = "1\n" * 300
    result = CliRunner().invoke(main, ["play", str(GAMES / "schmier.yaml"), "--seed", "5", "--bot", "random"],
                                input=typed)
    out = result.output
    assert "P4 names hearts trump.\nP6: exchange 3 cards\n" in out
    assert "P1> P1: exchange 3♣\nP2: exchange 2 cards\nP3: exchange 2 cards\nP4: exchange 1 card\n" \
           "P5: discard a card\n" in out
    assert "P1> P1: play Q♥\nP2: play K♥\nP3: play 4♠\nP2 took the trick\nP2: play J♦\n" in out
    others = [line for line in out.splitlines() if line.startswith(("P2: ", "P3: ", "P4: ", "P5: ", "P6: "))]
    assert all(line.endswith((" card", " cards")) for line in others if "exchange" in line or "discard" in line)


def test_the_log_holds_the_games_own_lines_once_and_not_those_of_positions_a_bot_tries():
    """A greedy bot tries each move on copies of the game while it chooses: what the game logs
    there is not said at the table. The last trick's taker comes before the line of the deal's end."""
    session = Session(load("euchre", openspiel="true"), 4, 3, "greedy", set())
    session.advance()
    lines = session.log_lines(None)
    said = [line for line in lines if not line.startswith(("P1: ", "P2: ", "P3: ", "P4: "))]
    assert lines[:5] == ["P3: pass", "P4: pass", "P1: order up the card", "P1 orders up Q♥: hearts are trumps.",
                         "P2: discard a card"]
    assert said == ["P1 orders up Q♥: hearts are trumps.", "P1 took the trick", "P2 took the trick", "P3 took the trick",
                    "P2 took the trick", "P1 took the trick", "P1 made hearts and took 3 of the 5 tricks: the makers score 1.",
                    "Hand 1:", "  T1: tricks taken 3, deal points 1, match points 1",
                    "  T2: tricks taken 2, deal points -1, match points -1"]


def test_two_tables_of_one_loaded_game_each_hear_their_own_lines():
    """The game is shared, what a table hears rides on its state: a second table made later (or
    played in between) takes nothing from the first, and the game object is left as it was."""
    loaded = load("euchre")
    before = dict(vars(loaded.game))
    first = Session(loaded, 4, 3, "greedy", set())
    second = Session(loaded, 4, 4, "greedy", set())
    second.advance()
    first.advance()
    alone = Session(load("euchre"), 4, 3, "greedy", set())
    alone.advance()
    assert first.log_lines(None) == alone.log_lines(None)
    assert "P1 orders up Q♥: hearts are trumps." in first.log_lines(None)
    assert "P1 orders up Q♥: hearts are trumps." not in second.log_lines(None)
    assert first.hand_end == alone.hand_end and first.hand_end != second.hand_end
    assert vars(loaded.game).keys() == before.keys()


def test_the_last_trick_of_a_hand_is_taken_by_its_winner():
    """The hand ends with the trick: its cards leave the table with the rest, and new hands are
    dealt; the winner is the trick's by the game's rules, whoever's pile grew."""
    typed = "bid 3\nname_trump hearts\ndealer_discard 3D\ndealer_discard 5S\ndealer_discard 4S\n" \
            "play 6H\nplay 10S\nplay 10D\nplay KC\n" + "1\n" * 20
    out = CliRunner().invoke(main, ["play", "schmier", "--seed", "11", "--plain"], input=typed).output
    said = [line for line in out[:out.index("== Schmier: round 2")].splitlines()
            if ": play " in line or line.endswith("took the trick")]
    assert said[-7:] == ["P6: play K♥", "P1> P1: play 8♠", "P2: play 8♦", "P3: play 9♠", "P4: play 6♣", "P5: play 3♥",
                         "P6 took the trick"]


def test_nerts_says_when_everyone_is_stuck():
    session = Session(load("nerts"), 2, 0, "random", set())
    for _ in range(400):
        session.advance()
    assert "everyone is stuck: each stock is re-formed and play goes on" in session.log_lines(None)


def test_each_seats_cup_is_shown_its_own_dice_only_until_a_call_lifts_every_cup():
    """Dice per seat: P1 reads its own dice and ``?`` for the others', and at the end of the round
    (a call) every cup; the next round's cups are secret again."""
    result = CliRunner().invoke(main, ["play", str(GAMES / "liars_dice.yaml"), "--seed", "3", "--bot", "random"],
                                input="bid 1 2\ncall\n")
    lines = [line for line in result.output.splitlines() if not line.lstrip()[:1].isdigit()]   # not the moves
    assert lines[1:4] == ["== Liar's dice: round 1, Bidding, P1 to play ==",
                          "Dice: P1 1 3 4 5 5 · P2 ? ? ? ? ? · P3 ? ? ? ? ?",
                          "bid (dice): 0  bid (face): 0  bidder: -"]
    called = lines.index("P1> P1: call")
    assert lines[called:called + 4] == ["P1> P1: call",
                                        "P1 calls: 7 dice count for 3, 14 were bid; P3 loses a chip",
                                        "== end of round 1 ==",
                                        "Dice: P1 1 3 4 5 5 · P2 1 1 3 6 6 · P3 1 3 4 6 6"]
    assert lines[called + 8:called + 10] == ["== Liar's dice: round 2, Bidding, P1 to play ==",
                                             "Dice: P1 5 5 5 5 5 · P2 ? ? ? ? ? · P3 ? ? ? ? ?"]
    # The table's dice (one set for everyone) read as before.
    shared = CliRunner().invoke(main, ["play", str(GAMES / "dice_poker.yaml"), "--seed", "3"], input="1\n")
    assert "\nDice: 1 1 1 1 1\n" in shared.output
