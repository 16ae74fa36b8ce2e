"""Two browser pages play each other on a served table: a whole game of Dice poker by the move
buttons, and a hand of Nerts by clicks (a card, then where it goes) and by drag and drop, then
both press Ready and the next hand starts. Screenshots go to tests/artifacts/."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser import browser, open_seat, screenshot, wait_version  # noqa: F401
from tests.serve_client import Client  # noqa: F401  (skips without the [serve] extra)
from interpreter.bots.agents import make_bot
from interpreter.play.serve.hints import move_spots
from interpreter.play.serve.registry import Tables
from interpreter.play.serve.runner import ServerThread

from tests.helpers import GAMES, everyone_ready
from tests.test_tui import assert_no_identifiers

MAX_ACTIONS = 600


def button(page, move):
    return page.locator(f"#moves button[data-move={json.dumps(move)}]")


def give_name(page, name):
    page.locator("#name").fill(name)
    page.locator("#name").press("Tab")          # the name is sent once the field is left


def test_two_pages_play_a_game_of_dice_poker_by_the_dice_then_play_again(browser):
    """Named seats; the dice to throw again chosen by clicking them (or by the keyboard), the
    other moves by their buttons; the end says who won; both press Play again and find themselves
    at a new table, in the same seats, under the same names."""
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, seed=4, fake_clock=0.5)
    session = table.session
    with ServerThread(tables, rate=1000, burst=1000) as server:   # the test clicks fast
        pages = [open_seat(browser, server, table, seat) for seat in (0, 1)]
        give_name(pages[0], "Ann")
        give_name(pages[1], "Bob")
        pages[0].wait_for_selector('.seat[data-seat="1"] .seat-name >> text=P2 Bob')
        assert table.names == {0: "Ann", 1: "Bob"}
        thrown = 0
        for count in range(MAX_ACTIONS):
            if session.state.over:
                break
            seat = session.state.current
            page, version = pages[seat], table.version
            wait_version(page, version)
            message = table.state_message(seat, None)
            rethrows = [m for m in message["view"]["moves"] if m.startswith("rethrow")]
            if rethrows and count % 3:
                move = rethrows[count % len(rethrows)]
                for n, (_, die) in enumerate(message["spots"][move]):
                    if n == 0:              # by the keyboard: the die, then space
                        page.locator(f'#board .die[data-die="{die}"]').focus()
                        page.keyboard.press(" ")
                    else:
                        page.locator(f'#board .die[data-die="{die}"]').click()
                    assert page.locator(f'#board .die[data-die="{die}"]').get_attribute("aria-pressed") == "true"
                go = page.locator("#board button.dice-go")
                assert go.get_attribute("data-move") == move
                assert go.inner_text() == message["move_words"][message["view"]["moves"].index(move)]
                if thrown == 2:
                    screenshot(page, "dice_poker_dice_chosen")
                go.click()
                thrown += 1
            else:
                assert all(not b.startswith("rethrow") for b in
                           page.locator("#moves button.move").evaluate_all("bs => bs.map(b => b.dataset.move)"))
                moves = page.locator("#moves button.move")
                moves.nth(count % moves.count()).click()     # now one, now another
            wait_version(page, version, above=True)        # the server has taken it
        assert session.state.over and thrown > 10
        winner = table.final()[0]["seat"]
        for seat, page in enumerate(pages):
            wait_version(page, table.version)
            page.wait_for_selector("#overlay:not([hidden]) h2")
            assert page.locator("#panel h2").inner_text() == ("You won" if seat == winner else "You came 2nd of 2")
            assert page.locator("#you").inner_text() == f"you are P{seat + 1} {['Ann', 'Bob'][seat]}"
            rows = page.locator("#panel table tr").all_inner_texts()
            assert len(rows) == 3 and rows[0].split() == ["seat", "place", "score", "result"]
        places = [r["seat"] for r in table.final()]
        assert pages[0].locator("#panel table tr").nth(1).inner_text().startswith(f"P{places[0] + 1}")
        screenshot(pages[0], "dice_poker_over")
        pages[0].locator("button.rematch").click()
        pages[1].wait_for_selector("#panel >> text=P1 Ann would play again; waiting for P2 Bob")
        pages[1].locator("button.rematch").click()
        for seat, page in enumerate(pages):                # the same seat at the new table
            page.wait_for_url(lambda url: f"/t/{table.id}" not in url)
            assert page.url == f"{server.url}/t/{table.next_table}#token={table.tokens.token(seat)}"
            page.wait_for_selector("#overlay[hidden]", state="attached")
            page.wait_for_selector(f"#you >> text=you are P{seat + 1} {['Ann', 'Bob'][seat]}")
        assert tables.get(table.next_table).names == {0: "Ann", 1: "Bob"}
        assert pages[0].errors == [] and pages[1].errors == []


def matches(spot, place):
    return spot is not None and spot[:2] == place[:2] and (len(spot) == 2 or (len(place) == 3 and spot == place))


def selector(place):
    if len(place) == 3:
        return f'#board .card[data-zone="{place[0]}"][data-pile="{place[1]}"][data-pos="{place[2]}"]'
    return f'#board .pile[data-zone="{place[0]}"][data-pile="{place[1]}"]'


def play_in_page(page, move, spots, how):
    """Play ``move`` as a person would: a click on its card (or its card and then its target),
    a double click on a card whose one move it is, a drag of its card onto its target, or its
    button. How it was played: ``click``, ``double``, ``drag``, ``pile`` (a move without choices
    on its pile) or ``button``."""
    mine = spots[move]
    if not mine:
        button(page, move).click()
        return "button"
    source = mine[0]
    starting = [m for m, s in spots.items() if s and matches(s[0], source)]
    if len(mine) == 1 and starting == [move]:
        page.locator(selector(source)).click()
        return "click" if " " in move else "pile"
    if len(mine) == 1 and not mine[0][2:] and all(len(spots[m]) == 1 for m in starting):
        page.locator(selector(source)).click()       # a pile with a choice of moves: it, then the move
        button(page, move).click()
        return "pile"
    if how == "double" and starting == [move]:         # the card's one move: a double click plays it
        page.locator(selector(source)).dblclick()
        return "double"
    if len(mine) == 2 and [m for m in starting if spots[m][1:2] == mine[1:2]] == [move]:
        if how == "drag":
            page.drag_and_drop(selector(source), selector(mine[1]))
            return "drag"
        page.locator(selector(source)).click()
        page.wait_for_selector(selector(source) + ".selected")
        page.locator(selector(mine[1])).first.click()
        return "click"
    button(page, move).click()
    return "button"


def test_two_pages_and_a_bot_play_a_hand_of_nerts(browser):
    """Two people and a bot: nothing starts before both said ready; then every move on the board
    (a click on the card and its target, a drag, a double click, a click on the stock), a move the
    bot made impossible refused with the bot's name; at the hand's end both press Ready."""
    tables = Tables()
    table = tables.create(str(GAMES / "nerts.yaml"), players=3, bots={2}, bot_speed=1.5, seed=29, fake_clock=0.5)
    session, loaded = table.session, table.loaded
    bots = [make_bot("priority", loaded.game, seat, 29) for seat in range(2)]
    ways = {"click": 0, "drag": 0, "double": 0, "pile": 0, "button": 0}
    refused = []
    with ServerThread(tables, rate=1000, burst=1000) as server:   # the test clicks fast
        pages = [open_seat(browser, server, table, seat) for seat in (0, 1)]
        for seat, page in enumerate(pages):        # nothing starts before everyone is ready
            page.wait_for_selector("#overlay:not([hidden]) h2")
            assert page.locator("#panel h2").inner_text() == "Ready to play?"
            assert session.paused and session.state.moves == 0 and page.locator("#moves button.move").count() == 0
            page.locator("button.ready").click()
            page.wait_for_selector("#panel >> text=You are ready." if seat == 0 else "#overlay[hidden]",
                                   state="attached")
        assert not session.paused
        for count in range(MAX_ACTIONS):
            if session.paused:
                break
            seat = count % 2
            page, version = pages[seat], table.version
            wait_version(page, version)
            legal = loaded.legal_moves(session.state, seat)
            move = bots[seat].choose(session.state, legal).text
            spots = move_spots(loaded.game, session.state, seat, legal)
            how = ["drag", "click", "double"][count % 3]
            if count == 40:
                screenshot(page, "nerts_playing")
            ways[play_in_page(page, move, spots, how)] += 1
            wait_version(page, version, above=True)        # the server has taken it, or the bot came first
            mine = [entry.move.text for entry in session.log if entry.move is not None and entry.move.seat == seat]
            if mine[-1] != move and not session.paused:
                page.wait_for_selector("#toast:not([hidden])")
                refused.append(page.locator("#toast").inner_text())
        assert session.paused and session.state.round == 2
        # Every move on the board: a move without choices (turning the stock) on its pile.
        assert ways["drag"] > 5 and ways["click"] > 10 and ways["double"] > 3 and ways["pile"] > 10, ways
        assert ways["button"] * 10 < sum(ways.values()), ways     # the list is the fallback
        assert all(text.startswith("too slow: P3 played") for text in refused), refused
        assert any(entry.move is not None and entry.move.seat == 2 for entry in session.log)     # the bot played
        for page in pages:
            wait_version(page, table.version)
            page.wait_for_selector("#overlay:not([hidden]) button.ready")
        screenshot(pages[0], "nerts_hand_over")
        pages[0].locator("button.ready").click()
        pages[0].wait_for_selector("#panel >> text=You are ready.")
        assert pages[1].locator("#panel p").first.inner_text() in ("Waiting for P2", "Waiting for P1, P2")
        assert pages[1].locator("#panel .hand-values").count() == 1
        pages[1].locator("button.ready").click()
        for page in pages:
            page.wait_for_selector("#overlay[hidden]", state="attached")
            assert page.locator("#flow").inner_text() == "round 2 · Everyone plays at once"
        assert not session.paused
        screenshot(pages[1], "nerts_next_hand")
        assert pages[0].errors == [] and pages[1].errors == []


def seat_strip(page):
    return page.locator("#seats .seat").evaluate_all(
        "chips => chips.map(c => [c.querySelector('.seat-name').textContent,"
        " [...c.querySelectorAll('.tag')].map(t => t.textContent), (c.querySelector('.seat-counts') || {}).textContent])")


def test_two_pages_and_two_bots_play_a_deal_of_euchre_by_clicks(browser):
    """Partners at two pages, bots at the other seats: the seats in the order of play with where
    they sit, their marks, who plays them and the cards they hold; each card played by a click on
    it, the bidding by its buttons; a taken trick stays in sight with who took it;
    a part of the page that did not change stays the same node through the deal."""
    tables = Tables()
    table = tables.create(str(GAMES / "euchre.yaml"), seed=12, bots={1, 3}, bot_kind="random", fake_clock=0.5)
    session, loaded = table.session, table.loaded
    chooser = make_bot("random", loaded.game, 0, 12)
    ways = {"click": 0, "pile": 0, "button": 0}
    with ServerThread(tables, rate=1000, burst=1000) as server:
        pages = {seat: open_seat(browser, server, table, seat) for seat in (0, 2)}
        first = pages[0]
        wait_version(first, table.version)
        view = table.state_message(0, None)["view"]
        dealer = next(s for s, marks in enumerate(view["marks"]) if "dealer" in marks)
        strip = seat_strip(first)
        assert [name for name, _, _ in strip] == ["P2 (left)", "P3 (across, partner)", "P4 (right)", "P1"]
        assert [tags[-1] if tags[-1] != "to play" else tags[-2] for _, tags, _ in strip] == ["bot", "person", "bot", "you"]
        assert ["dealer" in tags for _, tags, _ in strip] == [s == dealer for s in (1, 2, 3, 0)]
        assert [counts for _, _, counts in strip] == [f"hand {len(view['zones']['hand'][s])}" for s in (1, 2, 3, 0)]
        first.evaluate("() => { document.querySelector('#seats .seat[data-seat=\"2\"] .seat-name').kept = true;"
                       " document.querySelector('#log li').kept = true; }")
        tricks_seen = 0
        for count in range(MAX_ACTIONS):
            if session.state.over or session.state.round > 1:
                break
            seat = session.state.current
            page, version, taken = pages[seat], table.version, session.last_trick
            wait_version(page, version)
            legal = loaded.legal_moves(session.state, seat)
            move = chooser.choose(session.state, legal).text
            spots = move_spots(loaded.game, session.state, seat, legal)
            if count == 6:
                screenshot(page, "euchre_playing")
            ways[play_in_page(page, move, spots, "click")] += 1
            wait_version(page, version, above=True)
            assert [entry.move.text for entry in session.log if entry.move is not None and entry.move.seat == seat][-1] == move
            if session.last_trick is not None and session.last_trick != taken and session.state.round == 1:
                winner = session.last_trick["winner"]
                page.wait_for_selector(f"#board .taken >> text=P{winner + 1} takes the trick")
                held = page.locator("#board .cards.trick .card").evaluate_all("cs => cs.map(c => c.dataset.label)")
                assert held == [label for _, label in session.last_trick["plays"]]
                tricks_seen += 1
        assert session.state.round == 2 or session.state.over
        assert tricks_seen >= 2 and ways["click"] >= 5 and ways["button"] < ways["click"], (tricks_seen, ways)
        wait_version(first, table.version)
        assert first.evaluate("() => document.querySelector('#seats .seat[data-seat=\"2\"] .seat-name').kept"
                              " && document.querySelector('#log li').kept") is True
        for page in pages.values():
            assert page.errors == []


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_game_is_drawn_from_its_view(browser, path):
    """Every card the seat sees is drawn with its label, the dice with their values, every move
    is a button; and the page raises no error."""
    tables = Tables()
    table = everyone_ready(tables.create(str(path), seed=8, bots=set(range(1, 8)) & set(range(table_size(path))),
                                         bot_kind="random", fake_clock=0.5))
    with ServerThread(tables, rate=1000, burst=1000) as server:   # the test clicks fast
        page = open_seat(browser, server, table, 0)
        wait_version(page, table.version)
        message = table.state_message(0, None)
        view = message["view"]
        seen = sorted(c for zone in view["zones"].values() for pile in zone for c in pile if c)
        drawn = sorted(page.locator("#board .card[data-label]").evaluate_all("cards => cards.map(c => c.dataset.label)"))
        assert drawn == seen
        dice = view["dice"]
        if dice and isinstance(dice[0], list):      # a cup per seat, in the seat's area; unseen dice as backs
            for seat, cup in enumerate(dice):
                assert page.locator(f'#board .cup[data-seat="{seat}"] .die').all_inner_texts() == \
                    ["" if d is None else str(d) for d in cup]
        else:
            assert page.locator("#board .die").all_inner_texts() == [str(d) for d in dice]
        assert page.locator("#moves button.move").evaluate_all("bs => bs.map(b => b.dataset.move)") == view["moves"]
        # In the game's words: the moves, the zones and variables, none the game labels or hides.
        assert page.locator("#moves button.move").evaluate_all("bs => bs.map(b => b.firstChild.textContent)") == \
            message["move_words"]
        previews = page.locator("#moves button.move").evaluate_all(
            "bs => bs.map(b => b.querySelector('.preview') && b.querySelector('.preview').textContent)")
        assert previews == (message["previews"] or [None] * len(previews))
        assert_no_identifiers(table.loaded, [page.locator("#layout").inner_text()])
        words = table.session.words
        if words.summary:
            page.locator("#rules summary").click()
            assert " ".join(words.summary.split())[:40] in " ".join(page.locator("#rules").inner_text().split())
        assert page.evaluate((Path(__file__).parent / "contrast.js").read_text()) == []    # text contrast >= 4.5:1
        screenshot(page, f"game_{path.stem}")
        assert page.errors == []


def test_a_page_shows_its_own_cup_the_others_as_backs_and_every_cup_after_a_call(browser):
    """Dice per seat: P1's page draws its own dice, the others' as backs with no value on the page
    nor in any message it receives; after P1's call the next round has thrown every cup again,
    and the cups as they were lifted stay in sight (*dice at the end of round 1*)."""
    tables = Tables()
    table = tables.create(str(GAMES / "liars_dice.yaml"), seed=3, bots={1, 2}, bot_kind="random", fake_clock=0.5)
    session = table.session
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.errors, received = [], []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: received.append(payload)))
        page.goto(f"{server.url}/t/{table.id}#token={table.tokens.token(0)}")
        wait_version(page, table.version)
        assert session.state.dice == [[1, 3, 4, 5, 5], [1, 1, 3, 6, 6], [1, 3, 4, 6, 6]]
        assert page.locator('#mine .cup[data-seat="0"] .die').all_inner_texts() == ["1", "3", "4", "5", "5"]
        for seat in (1, 2):
            cup = page.locator(f'#others .cup[data-seat="{seat}"]')
            assert cup.locator(".die.back").count() == 5 and cup.locator(".die:not(.back)").count() == 0
            assert not re.search(r"\d", cup.inner_text())
            assert cup.locator(".die").first.get_attribute("aria-label") == "die 1: hidden"
        assert page.locator(".last-dice").count() == 0
        screenshot(page, "liars_dice_cups")
        button(page, "bid 1 2").click()
        button(page, "call").wait_for()              # the bots have bid: P1 may call
        before = len(received)
        button(page, "call").click()
        page.wait_for_selector(".last-dice")
        lifted = [[1, 3, 4, 5, 5], [1, 1, 3, 6, 6], [1, 3, 4, 6, 6]]
        assert session.hand_end.dice == lifted and session.state.round == 2
        assert page.locator(".last-dice .area-title").inner_text() == "dice at the end of round 1"
        assert page.locator(".last-dice .zone-name").all_inner_texts() == ["P1", "P2", "P3"]
        assert page.locator(".last-dice .die").all_inner_texts() == [str(d) for cup in lifted for d in cup]
        # The new round's cups: P1's own in sight, the others' under their cups again.
        wait_version(page, table.version)
        assert page.locator('#mine .cup[data-seat="0"] .die').all_inner_texts() == [str(d) for d in session.state.dice[0]]
        assert page.locator("#others .cup .die.back").count() == 10
        screenshot(page, "liars_dice_lifted")
        states = [json.loads(raw) for raw in received if json.loads(raw)["type"] == "state"]
        assert states[0]["view"]["round"] == 1 and len(states) >= 3      # the start, the bids, the call
        for n, message in enumerate(states):
            dice = message["view"]["dice"]
            assert all(d is None for cup in dice[1:] for d in cup), message      # never another's value
            assert all(spot[0] != "#die" for spots in message["spots"].values() for spot in spots)
            if message["view"]["round"] == 1:
                assert message["last_dice"] is None
            else:
                assert message["last_dice"] == {"round": 1, "dice": lifted}
        assert states[-1]["view"]["round"] == 2 and len(received) > before
        assert page.errors == []


def test_dice_to_throw_again_are_chosen_in_your_own_cup(browser, tmp_path):
    """With a cup per seat, the dice a move chooses are placed in the acting seat's own cup: they
    are the dice a click chooses; the others' cups are never choosable."""
    from tests.test_tui_cups import CUPS

    path = tmp_path / "cups.yaml"
    path.write_text(CUPS)
    tables = Tables()
    table = tables.create(str(path), players=2, seed=5, bots={1}, bot_kind="random", fake_clock=0.5)
    session = table.session
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = open_seat(browser, server, table, 0)
        wait_version(page, table.version)
        mine = session.state.dice[0]
        message = table.state_message(0, None)
        one = [m for m in message["view"]["moves"] if m.startswith("again ") and len(m.split()) == 2]
        assert message["spots"][one[0]] == [["#die", mine.index(int(one[0].split()[1]))]]
        assert page.locator('#mine .cup[data-seat="0"] .die.source').count() == len(mine)
        assert page.locator("#others .die.source").count() == 0 and page.locator("#others .die.back").count() == 3
        page.locator('#mine .die[data-die="2"]').click()
        go = page.locator("#board button.dice-go")
        assert go.get_attribute("data-move") == f"again {mine[2]}"
        screenshot(page, "cups_die_chosen")
        version = table.version
        go.click()
        wait_version(page, version, above=True)         # the server has taken it
        assert session.log_lines(0)[0] == f"P1: again {mine[2]}"
        assert page.errors == []


def table_size(path):
    from interpreter.engine.loaded import load_game
    return load_game(path).game.default_players


def test_a_page_shows_who_comes_and_goes_and_a_table_that_stops(browser, tmp_path):
    from tests.runtime_games import CASES

    path = tmp_path / "probe.yaml"
    path.write_text(CASES["division by zero"])          # P1's move fails: the table stops
    tables = Tables()
    table = tables.create(str(path), players=2, fake_clock=0.5)
    with ServerThread(tables) as server:
        page = open_seat(browser, server, table, 0)
        page.wait_for_selector(".seat .tag.away")                     # P2 is not here
        other = Client(server, table, table.tokens.token(1))
        page.wait_for_selector(".seat .tag.away", state="detached")   # told by a presence
        assert page.locator('.seat[data-seat="1"] .tag').all_inner_texts() == ["person"]
        other.close()
        page.wait_for_selector(".seat .tag.away")
        button(page, "poke").click()
        page.wait_for_selector("#overlay:not([hidden]) h2")
        assert page.locator("#panel h2").inner_text() == "The table has stopped"
        assert page.locator("#panel p").inner_text() == \
            "the table has stopped: the game met an error (the host has the details)"
        assert page.locator("#status").inner_text() == "stopped"
        assert page.locator("#moves").inner_text() == "The table has stopped."
        screenshot(page, "table_stopped")
        assert page.errors == []


def test_a_card_is_named_played_by_keyboard_and_the_end_says_who_won_with_the_hands_breakdown(browser):
    """Cards read as their names; Tab and Enter play a card as a click does; the log is announced;
    at the end: "You won" or the place, the standings and the hand's named score parts."""
    tables = Tables()
    table = tables.create(str(GAMES / "last_card.yaml"), players=2, bots={1}, bot_kind="random", seed=4,
                          fake_clock=0.5)
    session = table.session
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = open_seat(browser, server, table, 0)
        wait_version(page, table.version)
        assert page.locator("#log").get_attribute("aria-live") == "polite"
        first = page.locator("#board .card[data-label]").first
        label = first.get_attribute("data-label")
        assert first.get_attribute("aria-label") == card_name(label)
        for _ in range(MAX_ACTIONS):
            if session.state.over:
                break
            version = table.version
            wait_version(page, version)
            sources = page.locator("#board .card.source")
            if sources.count():
                sources.first.focus()                  # by keyboard: the card, then Enter
                page.keyboard.press("Enter")
            else:
                page.locator("#moves button.move").first.click()
            wait_version(page, version, above=True)
        assert session.state.over
        wait_version(page, table.version)
        page.wait_for_selector("#overlay:not([hidden]) h2")
        place = next(r["place"] for r in table.final() if r["seat"] == 0)
        assert page.locator("#panel h2").inner_text() == ("You won" if place == 1 else "You came 2nd of 2")
        assert page.locator("#panel h3").inner_text() == "The hand"
        parts = session.hand_parts
        rows = page.locator("#panel table").nth(1).locator("tr").all_inner_texts()
        assert [r.split("\t")[0] for r in rows] == ["", *parts] and rows[1].split("\t")[1:] == [
            str(v) for v in parts["cards left"]]
        screenshot(page, "last_card_over")
        assert page.errors == []


def card_name(label):
    ranks = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    return f"{ranks.get(label[:-1], label[:-1])} of {suits[label[-1]]}"


def test_a_wrong_link_says_so_and_a_lost_server_shows_a_banner(browser):
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, seed=4, fake_clock=0.5)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = browser.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.goto(f"{server.url}/t/{table.id}#token=not-a-token")
        page.wait_for_selector("#overlay:not([hidden]) h2")
        assert page.locator("#panel h2").inner_text() == "Cannot join this table"
        assert page.locator("#panel p").first.inner_text() == "this token is not one of this table's seats"
        assert page.locator("#status").inner_text() == "not joined"
        seated = open_seat(browser, server, table, 0)
        wait_version(seated, table.version)
        assert seated.locator("#banner").is_hidden()
    seated.wait_for_selector("#banner:not([hidden])")       # the server is gone
    assert seated.locator("#banner").inner_text() == "The connection to the table is lost: reconnecting…"
    assert page.errors == [] and seated.errors == []


def test_the_logs_numbers_are_its_own_after_a_join_and_a_reload(browser, monkeypatch):
    from interpreter.play.serve import hosted
    monkeypatch.setattr(hosted, "LOG_ON_JOIN", 3)           # a join gets only the last three lines
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, bots={1}, bot_kind="random", seed=4,
                          fake_clock=0.5)
    for _ in range(4):
        table.move(0, table.session.legal(0)[0].text, table.version)
    lines = table.session.log_lines(0)
    assert len(lines) > 6
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = open_seat(browser, server, table, 0)
        for _ in range(2):                                   # as first opened, then reloaded
            wait_version(page, table.version)
            assert page.locator("#log").get_attribute("start") == str(len(lines) - 2)
            assert page.locator("#log li").all_inner_texts() == lines[-3:]
            page.reload()
            page.wait_for_function("document.body.dataset.version !== undefined")


def test_a_scoring_move_shows_what_it_would_score_now(browser):
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, seed=4, fake_clock=0.5)
    seat = table.session.state.current
    table.move(seat, "throw", table.version)
    message = table.state_message(seat, None)
    scored = {m: p for m, p in zip(message["view"]["moves"], message["previews"]) if m.startswith("score ")}
    assert scored and all(p is not None and p[0] in "+-" for p in scored.values())
    assert all(p is None for m, p in zip(message["view"]["moves"], message["previews"]) if m.startswith("rethrow"))
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = open_seat(browser, server, table, seat)
        wait_version(page, table.version)
        for move, preview in scored.items():
            assert button(page, move).locator(".preview").inner_text() == preview
        assert page.errors == []


def test_two_tabs_on_one_seat_are_told(browser):
    tables = Tables()
    table = tables.create(str(GAMES / "dice_poker.yaml"), players=2, seed=4, fake_clock=0.5)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        first = open_seat(browser, server, table, 0)
        wait_version(first, table.version)
        assert first.locator("#tabs").is_hidden()
        second = open_seat(browser, server, table, 0)
        for page in (first, second):
            page.wait_for_selector("#tabs:not([hidden])")
            assert page.locator("#tabs").inner_text() == \
                "This seat is open in 2 tabs or windows: a move from any of them counts."
        second.close()
        first.wait_for_selector("#tabs", state="hidden")
        assert first.errors == []


@pytest.mark.parametrize("game, players", [("euchre", 4), ("nerts", 3), ("dice_poker", 2)])
def test_on_a_phone_your_cards_and_the_middle_of_the_table_are_on_one_screen(browser, game, players):
    """At 390x844 the page does not scroll sideways, and without scrolling down your own cards and
    the shared places they go to (or the dice) are all in sight."""
    tables = Tables()
    table = everyone_ready(tables.create(str(GAMES / f"{game}.yaml"), players=players, seed=8,
                                         bots=set(range(1, players)), bot_kind="random", fake_clock=0.5))
    if game == "dice_poker":
        table.move(0, "throw", table.version)
    with ServerThread(tables, rate=1000, burst=1000) as server:
        page = open_seat(browser, server, table, 0, viewport={"width": 390, "height": 844})
        wait_version(page, table.version)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        places = page.locator("#mine .card, #shared .pile, #shared .die").evaluate_all(
            "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        assert places and page.evaluate("window.scrollY") == 0
        assert [p for p in places if p[0] < 0 or p[1] < 0 or p[2] > 390 or p[3] > 844] == []
        screenshot(page, f"phone_{game}", full_page=False)
        assert page.errors == []
