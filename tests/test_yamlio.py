"""Safe YAML loading: limits, YAML 1.2 scalars, plain-word errors, and positions of every value."""
import json
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import limits
from interpreter.errors import LimitError, RulesError, YamlError
from interpreter.load.yamlio import load_yaml, load_yaml_file


def error_of(text, kind=YamlError):
    with pytest.raises(kind) as info:
        load_yaml(text, "g.yaml")
    assert type(info.value) is kind
    return info.value


def where(error):
    return error.pos.line, error.pos.col, error.pos.width


def span(pos):
    return pos.line, pos.col, pos.width


# ---------------------------------------------------------------- size, encoding, empty, documents

def test_file_size_limit_is_checked_on_bytes_and_text(monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 10)
    assert load_yaml(b"a: 1234567", "g.yaml").data == {"a": 1234567}
    for too_big in (b"a: 12345678", "a: 12345678", "é: 1234567"):  # 'é' is two bytes
        error = error_of(too_big, LimitError)
        assert error.headline() == "g.yaml:1:1: error: the file is larger than the limit of 10 bytes"


def test_a_file_over_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 100)
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: 1\n" * 100_000)
    with pytest.raises(LimitError) as info:
        load_yaml_file(path)
    assert info.value.headline() == f"{path}:1:1: error: the file is larger than the limit of 100 bytes"


def test_invalid_utf8_says_where():
    error = error_of(b"a: 1\nb: \xc3\xa9\xff\n")
    assert error.headline() == "g.yaml:2:5: error: the file is not valid UTF-8 (byte 0xff)"
    assert error.hint == "save the file with the UTF-8 encoding"


def test_a_lone_surrogate_in_text_input_is_not_utf8():
    assert error_of("a: \ud800\n").headline() == "g.yaml:1:4: error: the file is not valid UTF-8 (byte 0xed)"


@pytest.mark.parametrize("junk, col, code", [(b"\x00", 5, "0000"), (b"\x1b", 5, "001B"), (b"\x7f", 5, "007F")])
def test_control_characters_are_refused(junk, col, code):
    error = error_of(b"a: 1\nb: x" + junk + b"y\n")
    assert error.headline() == f"g.yaml:2:{col}: error: the character U+{code} is not allowed"
    assert error.hint == "only printable text, tabs and line breaks may appear; is this a binary file?"


def test_a_utf8_bom_is_accepted_and_not_counted_as_a_column():
    document = load_yaml(b"\xef\xbb\xbfa: 1\n", "g.yaml")
    assert document.data == {"a": 1}
    assert span(document.key_pos(("a",))) == (1, 1, 1)


@pytest.mark.parametrize("text", ["", "# only a comment\n\n   \n", "\n\n"])
def test_an_empty_file_is_an_error(text):
    assert error_of(text).headline() == "g.yaml:1:1: error: the file is empty"


def test_more_than_one_document_is_an_error():
    error = error_of("a: 1\n---\nb: 2\n")
    assert error.headline() == "g.yaml:2:1: error: the file holds more than one YAML document"
    assert where(error) == (2, 1, 3)
    assert error.hint == ("keep one document per file; remove this '---' and what follows, "
                          "or move it to a file of its own")


def test_one_explicit_document_is_fine():
    assert load_yaml("---\na: 1\n...\n", "g.yaml").data == {"a": 1}


# ---------------------------------------------------------------- depth and size of the tree

def test_nesting_up_to_the_limit_is_fine_and_past_it_refused_where_it_crosses():
    depth = limits.MAX_YAML_DEPTH
    ok = load_yaml("[" * depth + "]" * depth, "g.yaml").data
    for _ in range(depth - 1):
        ok = ok[0]
    assert ok == []
    error = error_of("[" * (depth + 1) + "]" * (depth + 1), LimitError)
    assert error.headline() == f"g.yaml:1:{depth + 1}: error: values are nested deeper than the limit of {depth} levels"


DEEP = 10_000


@pytest.mark.parametrize("text, line, col", [
    ("[" * DEEP + "]" * DEEP, 1, 65),
    ("{a: " * DEEP + "}" * DEEP, 1, 4 * 64 + 1),
    ("- " * DEEP + "x\n", 1, 2 * 64 + 1),
    ("".join(" " * i + "k:\n" for i in range(1000)), 65, 65),  # as deep as block mappings fit in 1 MB
], ids=["flow lists", "flow mappings", "block lists", "block mappings"])
def test_very_deep_input_fails_cleanly(text, line, col):
    error = error_of(text, LimitError)
    assert error.headline() == f"g.yaml:{line}:{col}: error: values are nested deeper than the limit of 64 levels"


def test_an_alias_cannot_carry_nesting_past_the_limit():
    anchor = "a: &deep " + "[" * 40 + "]" * 40 + "\n"
    error = error_of(anchor + "b: " + "[" * 30 + "*deep" + "]" * 30 + "\n", LimitError)
    assert error.headline() == "g.yaml:2:34: error: alias '*deep' nests values deeper than the limit of 64 levels"


def test_billion_laughs_fails_fast_without_building_the_expansion():
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    error = error_of("\n".join(lines) + "\n", LimitError)
    assert error.headline() == ("g.yaml:6:12: error: too many values after expanding aliases (an alias bomb?); "
                                "the limit is 200000")
    assert where(error) == (6, 12, 2)


def test_node_count_without_aliases(monkeypatch):
    monkeypatch.setattr(limits, "MAX_YAML_NODES", 5)
    assert load_yaml("[1, 2, 3, 4]", "g.yaml").data == [1, 2, 3, 4]
    assert error_of("[1, 2, 3, 4, 5]", LimitError).headline() == "g.yaml:1:14: error: too many values; the limit is 5"


def test_aliases_count_their_expanded_size(monkeypatch):
    monkeypatch.setattr(limits, "MAX_YAML_NODES", 12)
    text = "a: &x [1, 2]\nb: *x\nc: *x\n"  # 1 + (1+1+3) + (1+3) + (1+3) = 13 values
    error = error_of(text, LimitError)
    assert error.headline() == ("g.yaml:3:4: error: too many values after expanding aliases (an alias bomb?); "
                                "the limit is 12")


def test_anchors_and_aliases_share_values():
    document = load_yaml("base: &b {x: 1, y: [2]}\nother: *b\nname: &n hello\nagain: *n\n", "g.yaml")
    assert document.data == {"base": {"x": 1, "y": [2]}, "other": {"x": 1, "y": [2]},
                             "name": "hello", "again": "hello"}
    assert span(document.pos(("other",))) == (2, 8, 2)
    assert span(document.pos(("other", "y", 0))) == (1, 21, 1)  # inside the anchored value
    assert span(document.locate(("again",), 1)) == (3, 11, 1)   # into the anchored text


def test_merge_keys_are_refused():
    error = error_of("a: &a {x: 1}\nb:\n  <<: *a\n  y: 2\n")
    assert error.headline() == "g.yaml:3:3: error: merge keys (<<) are not supported; write the keys out"
    assert where(error) == (3, 3, 2)


def test_a_quoted_merge_key_is_plain_text():
    assert load_yaml("'<<': 1\n", "g.yaml").data == {"<<": 1}


def test_a_recursive_alias_is_refused():
    error = error_of("a: &x\n  b: [*x]\n")
    assert error.headline() == "g.yaml:2:7: error: alias '*x' is used inside its own anchor '&x'"
    assert error.hint == "a value cannot contain itself"


def test_an_undefined_alias_is_refused_with_a_suggestion():
    error = error_of("a: &colour red\nb: *color\n")
    assert error.headline() == "g.yaml:2:4: error: alias '*color' is not defined"
    assert error.hint == "did you mean 'colour'?"
    assert error_of("a: *x\n").hint == "define '&x' before using it"


# ---------------------------------------------------------------- keys

def test_duplicate_keys_are_refused_at_the_second_key():
    error = error_of("a: 1\nb:\n  c: 2\n  c: 3\n")
    assert error.headline() == "g.yaml:4:3: error: duplicate key 'c' (first defined at line 3)"
    assert error_of("{a: 1, a: 2}").headline() == "g.yaml:1:8: error: duplicate key 'a' (first defined at line 1)"


@pytest.mark.parametrize("text, message, hint, position", [
    ("1: a\n", "mapping keys must be text, but 1 is read as a number", "quote it: '1'", (1, 1, 1)),
    ("x: 1\n1.5: a\n", "mapping keys must be text, but 1.5 is read as a number", "quote it: '1.5'", (2, 1, 3)),
    ("true: b\n", "mapping keys must be text, but true is read as a boolean", "quote it: 'true'", (1, 1, 4)),
    ("null: c\n", "mapping keys must be text, but null is read as null", "quote it: 'null'", (1, 1, 4)),
    ("~: c\n", "mapping keys must be text, but ~ is read as null", "quote it: '~'", (1, 1, 1)),
    ("?\n: x\n", "mapping keys must be text, but this key is empty", "write a key before the ':'", (1, 2, 1)),
    ("? [a]\n: 1\n", "mapping keys must be text, but this key is a list",
     "write the key as text, in quotes if needed", (1, 3, 3)),
    ("{a: 1}: x\n", "mapping keys must be text, but this key is a mapping",
     "write the key as text, in quotes if needed", (1, 1, 9)),
    ("x: &n 5\n*n : y\n", "mapping keys must be text, but *n is read as a number",
     "an alias used as a key must stand for text", (2, 1, 2)),
])
def test_keys_must_be_text(text, message, hint, position):
    error = error_of(text)
    assert error.message == message
    assert error.hint == hint
    assert where(error) == position


def test_quoted_keys_are_text():
    assert load_yaml("'1': a\n\"true\": b\n", "g.yaml").data == {"1": "a", "true": "b"}


# ---------------------------------------------------------------- tags

@pytest.mark.parametrize("text, position", [
    ("a: !!python/object:os.system x\n", (1, 4, 25)),
    ("!foo {a: 1}\n", (1, 1, 4)),
    ("a: !!str 012\n", (1, 4, 5)),
    ("a: ! x\n", (1, 4, 1)),
    ("a: &keep !!seq [1]\n", (1, 10, 5)),
])
def test_tags_are_not_allowed_not_even_str(text, position):
    error = error_of(text)
    assert error.message == "tags are not allowed"
    assert error.hint == "remove the tag; to write text, put it in quotes instead"
    assert where(error) == position


# ---------------------------------------------------------------- scalars (YAML 1.2 core schema)

@pytest.mark.parametrize("plain, value", [
    ("null", None), ("Null", None), ("NULL", None), ("~", None), ("", None),
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
    ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"), ("tRUE", "tRUE"),
    ("0", 0), ("-0", 0), ("+5", 5), ("42", 42), ("-17", -17), ("999999999999999999", 999999999999999999),
    ("1.5", 1.5), ("-.5", -0.5), (".5", 0.5), ("2.", 2.0), ("1e3", 1000.0), ("-2.5E-3", -0.0025), ("+1e+2", 100.0),
    ("0x1F", "0x1F"), ("0o17", "0o17"), ("1_000", "1_000"), ("12:30", "12:30"), ("2001-12-14", "2001-12-14"),
    ("1e", "1e"), ("inf", "inf"), ("nan", "nan"), ("-x", "-x"), ("a b", "a b"),
])
def test_plain_scalars_follow_the_core_schema(plain, value):
    assert load_yaml(f"v: {plain}\n", "g.yaml").data == {"v": value}
    assert type(load_yaml(f"v: {plain}\n", "g.yaml").data["v"]) is type(value)


@pytest.mark.parametrize("text", ["'012'", '"true"', "'~'", '"1.5"', "|\n  12\n", ">-\n  null\n", "''"])
def test_quoted_and_block_scalars_are_always_text(text):
    value = load_yaml(f"v: {text}\n", "g.yaml").data["v"]
    assert isinstance(value, str)


@pytest.mark.parametrize("plain, message", [
    ("012", "'012' is ambiguous: YAML 1.1 reads it as the octal number 10; write 12, or quote it ('012') "
            "if you meant text"),
    ("-007", "'-007' is ambiguous: YAML 1.1 reads it as the octal number -7; write -7, or quote it ('-007') "
             "if you meant text"),
    ("00", "'00' is ambiguous: YAML 1.1 reads it as the octal number 0; write 0, or quote it ('00') "
           "if you meant text"),
    ("09", "'09' is ambiguous: a number with a leading zero; write 9, or quote it ('09') if you meant text"),
    ("+0189", "'+0189' is ambiguous: a number with a leading zero; write 189, or quote it ('+0189') "
              "if you meant text"),
])
def test_leading_zeros_are_ambiguous(plain, message):
    error = error_of(f"a: 1\nv: {plain}\n")
    assert error.headline() == f"g.yaml:2:4: error: {message}"
    assert where(error) == (2, 4, len(plain))


@pytest.mark.parametrize("plain", [".inf", "-.inf", ".Inf", "+.INF", ".nan", ".NaN", "1e999", "-1.5e400"])
def test_infinite_and_nan_numbers_are_refused(plain):
    error = error_of(f"v: {plain}\n")
    assert error.headline() == f"g.yaml:1:4: error: '{plain}' is not a finite number"
    assert error.hint == f"quote it ('{plain}') if you meant text"


def test_integers_have_a_digit_limit():
    error = error_of("v: " + "1234567890" * 500 + "\n", LimitError)
    assert error.headline() == "g.yaml:1:4: error: integer 123456... has 5000 digits; the limit is 18"
    error = error_of("v: -" + "9" * 19 + "\n", LimitError)
    assert error.message == "integer -999999... has 19 digits; the limit is 18"


def test_strings_have_a_length_limit():
    size = limits.MAX_SCALAR_CHARS
    assert len(load_yaml(f"v: '{'x' * size}'\n", "g.yaml").data["v"]) == size
    error = error_of(f"v: '{'x' * (size + 1)}'\n", LimitError)
    assert error.headline() == f"g.yaml:1:4: error: this text has {size + 1} characters; the limit is {size}"


def test_escaped_surrogates_are_refused():
    error = error_of('v: "\\ud800"\n')
    assert error.headline() == "g.yaml:1:4: error: '\\ud800' is a surrogate code, not a character"
    assert error.hint == "write the character itself, or its full code point as \\UXXXXXXXX"


def test_escapes_past_the_last_character_are_refused():
    error = error_of('v: "\\UFFFFFFFF"\n')
    assert error.headline() == "g.yaml:1:5: error: escape sequence beyond the last Unicode character U+10FFFF"
    assert where(error) == (1, 5, 10)


# ---------------------------------------------------------------- PyYAML's errors in plain words

@pytest.mark.parametrize("text, headline, hint", [
    ("a:\n\tb: 1\n", "g.yaml:2:1: error: tabs are not allowed for indentation; use spaces", None),
    ("a:\tb\n", "g.yaml:1:3: error: tabs are not allowed here; use spaces", None),
    ("a: 'abc\nb: 2\n", "g.yaml:3:1: error: the file ends inside a quoted string",
     "the quote opened at line 1, column 4 is never closed"),
    ("a: 'x\n---\n'\n", "g.yaml:2:1: error: a '---' line is inside a quoted string",
     "the quote opened at line 1, column 4 is never closed"),
    ("key: value: other\n", "g.yaml:1:11: error: ': ' is not allowed in an unquoted value",
     "quote the value (key: 'a: b'), or check the indentation of this line"),
    ("a:\n  b: 1\n c: 2\n",
     "g.yaml:3:2: error: expected a key of the mapping that starts at line 1, but found a new mapping",
     "check the indentation: the keys of one mapping start in the same column"),
    ("a: 1\n- b\n", "g.yaml:2:1: error: expected a key of the mapping that starts at line 1, "
                    "but found a list item ('-')",
     "check the indentation: the keys of one mapping start in the same column"),
    ("- a\n- b\nc: 1\n", "g.yaml:3:1: error: expected an item of the list that starts at line 1, but found a key",
     "check the indentation: the '-' items of one list start in the same column"),
    ("a: 1\nb\nc: 2\n", "g.yaml:3:1: error: expected ':' after the key at line 2, column 1",
     "each entry of a mapping has the form 'key: value'"),
    ("a: [1, 2\nb: 3\n", "g.yaml:2:2: error: expected ',' or ']' in the list that starts at line 1, but found ':'",
     None),
    ("a: {x: 1\n", "g.yaml:2:1: error: expected ',' or '}' in the mapping that starts at line 1, "
                   "but found the end of the file", None),
    ("a: ]\n", "g.yaml:1:4: error: expected a value, but found ']'", None),
    ("a: - b\n", "g.yaml:1:4: error: a list item ('- ') cannot start here",
     "put the list on the lines below its key, or quote the value"),
    ("a: ? b\n", "g.yaml:1:4: error: an explicit key ('? ') cannot start here",
     "quote the value if it starts with '?'"),
    ("a: @x\n", "g.yaml:1:4: error: a value cannot start with '@'", "put the value in quotes"),
    ('a: "\\q"\n', "g.yaml:1:6: error: found unknown escape character 'q'", None),
])
def test_pyyaml_errors_are_rewritten_in_plain_words(text, headline, hint):
    error = error_of(text)
    assert error.headline() == headline
    assert error.hint == hint


# ---------------------------------------------------------------- files

def test_load_yaml_file_reads_a_file(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_bytes(b"a: [1, two]\n")
    document = load_yaml_file(path)
    assert document.data == {"a": [1, "two"]}
    assert document.source.name == str(path)
    assert str(document.pos(("a", 1))) == f"{path}:1:8"


def test_load_yaml_file_reports_unreadable_files(tmp_path):
    missing = tmp_path / "missing.yaml"
    for path, reason in ((missing, "No such file or directory"), (tmp_path, "Is a directory"),
                         (str(tmp_path) + "/a\0b", "embedded null byte")):
        with pytest.raises(YamlError) as info:
            load_yaml_file(path)
        assert info.value.headline() == f"error: cannot read {path}: {reason}"


# ---------------------------------------------------------------- positions

GAME = """\
name: demo
moves:
  - name: roll   # first
    when: |
      throws < 3
        and  ok
    strip: |-
      a
    note: 'it''s x'
    dq: "a\\tb c"
    folded: >-
      one
      two
    plain: alpha
      beta
    flow: {a: [1, 2.5, true, null]}
  - &m {x: 1}
  - *m
"""


@pytest.fixture(scope="module")
def game():
    return load_yaml(GAME, "g.yaml")


def test_positions_document_is_plain_data(game):
    assert game.data == {"name": "demo", "moves": [
        {"name": "roll", "when": "throws < 3\n  and  ok\n", "strip": "a", "note": "it's x", "dq": "a\tb c",
         "folded": "one two", "plain": "alpha beta", "flow": {"a": [1, 2.5, True, None]}},
        {"x": 1}, {"x": 1}]}


@pytest.mark.parametrize("path, value_at, key_at", [
    ((), (1, 1, 10), (1, 1, 10)),
    (("name",), (1, 7, 4), (1, 1, 4)),
    (("moves",), (3, 3, 12), (2, 1, 5)),              # the list's first line, comment left out
    (("moves", 0), (3, 5, 10), (3, 5, 10)),
    (("moves", 0, "when"), (4, 11, 1), (4, 5, 4)),    # a block scalar is shown at its '|'
    (("moves", 0, "strip"), (7, 12, 2), (7, 5, 5)),
    (("moves", 0, "note"), (9, 11, 9), (9, 5, 4)),    # quotes included
    (("moves", 0, "plain"), (14, 12, 5), (14, 5, 5)),  # a multi-line value: its first line
    (("moves", 0, "flow"), (16, 11, 25), (16, 5, 4)),
    (("moves", 0, "flow", "a", 2), (16, 24, 4), (16, 24, 4)),
    (("moves", 2), (18, 5, 2), (18, 5, 2)),           # an alias is shown where it is used
    (("moves", 2, "x"), (17, 12, 1), (17, 9, 1)),     # what it stands for, where that is defined
])
def test_pos_and_key_pos(game, path, value_at, key_at):
    assert span(game.pos(path)) == value_at
    assert span(game.key_pos(path)) == key_at


@pytest.mark.parametrize("path, falls_back_to", [
    (("nope",), ()), (("moves", 9, "x"), ("moves",)), (("moves", 0, "flow", "a", 1, "deeper"), ("moves", 0, "flow", "a", 1)),
    (("moves", "0"), ("moves",)), (("moves", -1), ("moves",)), (("moves", True), ("moves",)), (([1],), ()),
])
def test_missing_paths_give_the_closest_ancestor(game, path, falls_back_to):
    assert game.pos(path) == game.pos(falls_back_to)
    assert game.key_pos(path) == game.pos(falls_back_to)


@pytest.mark.parametrize("path, offset, width, expected", [
    (("name",), 0, 1, (1, 7, 1)),
    (("name",), 2, 2, (1, 9, 2)),
    (("moves", 0, "name"), 3, 1, (3, 14, 1)),
    (("moves", 0, "when"), 0, 6, (5, 7, 6)),          # 'throws', first line of the block
    (("moves", 0, "when"), 7, 1, (5, 14, 1)),         # '<'
    (("moves", 0, "when"), 11, 1, (6, 7, 1)),         # the second line keeps its extra indentation
    (("moves", 0, "when"), 13, 3, (6, 9, 3)),         # 'and'
    (("moves", 0, "when"), 18, 2, (6, 14, 2)),        # 'ok'
    (("moves", 0, "strip"), 0, 1, (8, 7, 1)),
    (("moves", 0, "note"), 0, 1, (9, 12, 1)),         # after the opening quote
    (("moves", 0, "note"), 2, 1, (9, 14, 1)),         # the first quote of "''"
    (("moves", 0, "note"), 3, 1, (9, 16, 1)),         # after "''"
    (("moves", 0, "dq"), 1, 1, (10, 11, 1)),          # the escape '\t'
    (("moves", 0, "dq"), 2, 1, (10, 13, 1)),          # after the escape
    (("moves", 0, "folded"), 4, 3, (13, 7, 3)),       # best effort: folded lines
    (("moves", 0, "plain"), 6, 4, (15, 7, 4)),        # best effort: multi-line plain
])
def test_locate_a_character_of_a_string(game, path, offset, width, expected):
    assert span(game.locate(path, offset, width)) == expected


def test_locate_never_raises_and_clamps(game):
    assert span(game.locate(("name",), -5)) == (1, 7, 1)
    assert span(game.locate(("name",), 4)) == (1, 11, 1)      # just past the end
    assert span(game.locate(("name",), 400)) == (1, 11, 1)
    assert span(game.locate(("name",), 0, 0)) == (1, 7, 1)    # width at least 1
    assert game.locate(("moves", 0, "flow"), 3) == game.pos(("moves", 0, "flow"))  # not a string
    assert game.locate(("nope", 1), 3) == game.pos(())


def test_positions_with_crlf_line_ends():
    document = load_yaml("a: 1\r\nb: |\r\n  x y\r\n  z\r\nc: 'q'\r\n", "g.yaml")
    assert document.data == {"a": 1, "b": "x y\nz\n", "c": "q"}
    assert span(document.pos(("c",))) == (5, 4, 3)
    assert span(document.locate(("b",), 2)) == (3, 5, 1)
    assert span(document.locate(("b",), 4)) == (4, 3, 1)


def test_pos_of_a_flow_value_inside_a_list():
    document = load_yaml("- [a, 'b c', {d: 1}]\n", "g.yaml")
    assert span(document.pos((0,))) == (1, 3, 18)
    assert span(document.pos((0, 1))) == (1, 7, 5)
    assert span(document.key_pos((0, 2, "d"))) == (1, 15, 1)


# ---------------------------------------------------------------- properties

YAML_PIECES = ["a", "b", ":", ": ", " ", "  ", "\n", "- ", "-", "[", "]", "{", "}", ", ", "&a ", "*a", "&b ", "*b",
               "!", "!!str ", "|", "|-", ">", "'", '"', "#", "? ", "<<", "1", "012", "\t", "---", "...", "%YAML 1.2\n",
               "\\", "\\U0010FFFF", "\\x4", "~", "null", "true", ".inf", "1e5", "é", "\r\n", "\x85", "\ufeff", "\x00",
               "@", "`", "%"]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def load_and_probe(text):
    """Load, and on success ask for every kind of position; only RulesError may escape."""
    try:
        document = load_yaml(text, "f.yaml")
    except RulesError as error:
        error.render()
        return
    pending = [((), document.data)]
    while pending:
        path, value = pending.pop()
        document.pos(path), document.key_pos(path), document.locate(path, 1, 2)
        if isinstance(value, str):
            document.locate(path, len(value) - 1)
        elif isinstance(value, dict):
            pending.extend((path + (key,), child) for key, child in list(value.items())[:5])
        elif isinstance(value, list):
            pending.extend((path + (index,), child) for index, child in enumerate(value[:5]))


@FUZZ
@given(st.lists(st.sampled_from(YAML_PIECES), max_size=40).map("".join))
def test_yaml_like_text_only_raises_rules_errors(text):
    load_and_probe(text)


@FUZZ
@given(st.text(max_size=80))
def test_random_text_only_raises_rules_errors(text):
    load_and_probe(text)


@FUZZ
@given(st.binary(max_size=80))
def test_random_bytes_only_raise_rules_errors(data):
    load_and_probe(data)


# A string the YAML 1.1 dumper would write unquoted but the YAML 1.2 core schema reads as a
# non-string (e.g. "1e5"); the round trip quotes such strings so that both read them as text.
CORE_NON_TEXT = re.compile(r"null|Null|NULL|~|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+"
                           r"|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


class RoundTripDumper(yaml.SafeDumper):
    def represent_str(self, data):
        style = "'" if CORE_NON_TEXT.fullmatch(data) else None
        return self.represent_scalar("tag:yaml.org,2002:str", data, style=style)


RoundTripDumper.add_representer(str, RoundTripDumper.represent_str)

# PyYAML's emitter writes NEL and the Unicode line separators raw inside quotes, where its own
# scanner then folds them into spaces: a round trip through PyYAML alone loses them.
TEXT = st.characters(exclude_categories=["Cs"], exclude_characters="\x85\u2028\u2029")
json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**18) + 1, 10**18 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(TEXT, max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(TEXT, max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_like, st.booleans(), st.booleans())
def test_dumped_data_loads_back_equal(data, flow, allow_unicode):
    text = yaml.dump(data, Dumper=RoundTripDumper, sort_keys=False, allow_unicode=allow_unicode,
                     default_flow_style=flow)
    loaded = load_yaml(text, "g.yaml").data
    assert json.dumps(loaded) == json.dumps(data)  # also tells True from 1 and 1.0 from 1, and keeps key order
