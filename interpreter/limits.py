"""Every size, depth, magnitude and step limit, in one place (DESIGN principle 5).

A breach of any of them is a ``LimitError`` that names the limit and the value it met.
"""

# Game files
MAX_FILE_BYTES = 1_000_000          # a game file larger than this is refused before parsing
MAX_YAML_DEPTH = 64                 # nesting of mappings and sequences
MAX_YAML_NODES = 200_000            # nodes after expanding aliases (stops alias bombs)
MAX_YAML_ALIASES = 1_000            # aliases in one file: each costs PyYAML's scanner as much as a
                                    # value, so a file of nothing else is stopped before it is walked
MAX_EXTENDS_DEPTH = 8               # a variant of a variant of ... (extends: chains)
MAX_SCALAR_CHARS = 20_000           # one string value

# Cards
MAX_CARDS = 10_000                  # cards in play: every deck, counted, copied per seat at most players
MAX_PILES = 10_000                  # piles in play: every zone's, each owner's counted (a zone's
                                    # 'piles:', or one), for every number of players the game allows

# Expressions
MAX_EXPR_CHARS = 4_000              # characters in one expression
MAX_EXPR_DEPTH = 60                 # nesting of brackets, calls and operators
MAX_INT_DIGITS = 18                 # integer literals and results stay below 10**18
MAX_INT = 10**18
MAX_COLLECTION = 100_000            # elements in one list, range or map
MAX_CALL_DEPTH = 40                 # nested calls of user-defined functions at run time
MAX_EVAL_STEPS = 1_000_000          # work in one evaluation: loop iterations, function calls and
                                    # elements handed to built-ins (nested loops multiply otherwise);
                                    # also the work of all that one outermost 'for' effect evaluates

# Running games
MAX_LOOP_ITERATIONS = 100_000      # turns of one outermost 'for' effect and of the loops inside it
MAX_VARIABLE_ITEMS = 100_000        # items in the lists and maps of one variable's value, nested ones included
MAX_VALUE_DEPTH = 64                # lists and maps nested in one variable's value (or a view line's):
                                    # no start value a game file may write is deeper
MAX_MOVE_CHOICES = 100_000          # values tried for the parameters of one move while listing the
                                    # legal moves (their product: checked at load when the lists are known)
MAX_TRIGGER_CASCADE = 1_000         # triggers firing after one move
MAX_MOVES_PER_GAME = 1_000_000      # a game that has not ended by then is stopped
MAX_MOVES_PER_TURN = 1_000          # a seat still in the same turn after this many moves can never
                                    # end it: the game is reported as stalled
DEFAULT_MAX_ROUNDS = 1_000          # rounds of a match when the game names no flow.max_rounds
MAX_ROUNDS = 100_000                # the largest flow.max_rounds

# Players and records
MAX_PLAYERS = 64                    # seats at one table
MAX_RECORD_BYTES = 50_000_000       # a record file larger than this is refused before reading
