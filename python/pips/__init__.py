"""pips for Python: the games, agents, solver and playtest lab of libpips.

    import pips
    game = pips.Game("nimitz", board="3x3", colors=3)
    state = game.start()
    while not state.over:
        state.play(random.choice(state.moves()))
    print(state, state.returns)

Moves are integers (the library's move values, private to each game) in
the hot loop; `state.move_text(m)` and `state.parse(text)` convert, and
`play`/`child` take either. Errors raise `pips.Error`, a ValueError that
carries the library's message. The binding is cffi in ABI mode over
libpips.so (docs/python.md says why); every C call releases the GIL.
"""

import json
import os

from cffi import FFI

from . import _paths

__all__ = ["Error", "Game", "State", "Agent", "games", "perft", "solve", "solve_moves",
           "playtest", "ladder", "version", "CHANCE", "OVER"]

# The declarations this module calls, copied from include/pips/*.h. Only
# handles, numbers, strings and the stable small structs pips_error,
# pips_str and pips_rng cross the boundary (pips/ffi.h), never a struct
# that may grow.
_CDEF = """
typedef uint64_t pips_move;
typedef struct pips_error { int code; char msg[512]; } pips_error;
typedef struct pips_allocator pips_allocator;
typedef struct pips_str {
    char *data; size_t len, cap; bool failed; const pips_allocator *alloc;
} pips_str;
typedef struct pips_rng { uint64_t s[4]; } pips_rng;
typedef struct pips_game pips_game;
typedef struct pips_game_def pips_game_def;
typedef struct pips_agent pips_agent;

const char *pips_version(void);
void pips_str_init(pips_str *s, const pips_allocator *a);
void pips_str_free(pips_str *s);
const char *pips_str_cstr(const pips_str *s);
void pips_rng_seed(pips_rng *rng, uint64_t seed);

bool pips_games_json(pips_str *out, pips_error *err);
const pips_game_def *pips_game_find(const char *name);
bool pips_game_schema_json(const pips_game_def *def, pips_str *out, pips_error *err);
pips_game *pips_game_new_json(const char *name, const char *options_json,
                              const pips_allocator *alloc, pips_error *err);
void pips_game_free(pips_game *g);
const char *pips_game_name(const pips_game *g);
int pips_game_players(const pips_game *g, pips_error *err);
size_t pips_game_state_size(const pips_game *g);
size_t pips_game_max_moves(const pips_game *g);
bool pips_game_options_json(const pips_game *g, pips_str *out, pips_error *err);
bool pips_game_schema(const pips_game *g, pips_str *out, pips_error *err);
const void *pips_game_script(const pips_game *g);
bool pips_game_failed(const pips_game *g, pips_error *err);
void pips_game_clear_failure(const pips_game *g);

void *pips_state_new(const pips_game *g, pips_error *err);
bool pips_state_check(const pips_game *g, const void *state, pips_error *err);
void pips_state_free(const pips_game *g, void *state);
int pips_state_to_move(const pips_game *g, const void *state);
size_t pips_state_moves(const pips_game *g, const void *state, pips_rng *rng, pips_move *out,
                        double *prob, pips_error *err);
bool pips_play(const pips_game *g, void *state, pips_move m, pips_error *err);
bool pips_move_parse(const pips_game *g, const void *state, const char *text, pips_move *m,
                     pips_error *err);
bool pips_state_returns(const pips_game *g, const void *state, double *out, pips_error *err);
bool pips_move_text(const pips_game *g, const void *state, pips_move m, char *buf,
                    pips_error *err);
bool pips_state_text(const pips_game *g, const void *state, pips_str *out, pips_error *err);
bool pips_state_set_text(const pips_game *g, void *state, const char *text, pips_error *err);
bool pips_state_canonical(const pips_game *g, const void *state, void *out, pips_error *err);
bool pips_state_render(const pips_game *g, const void *state, bool unicode, pips_str *out,
                       pips_error *err);
bool pips_state_view_json(const pips_game *g, const void *state, pips_str *out,
                          pips_error *err);
bool pips_state_perft(const pips_game *g, const void *state, int depth, uint64_t *count,
                      pips_error *err);
bool pips_solve_json(const pips_game *g, const void *state, const char *request,
                     pips_str *out, pips_error *err);

pips_agent *pips_agent_new(const pips_game *g, const char *spec, uint64_t seed,
                           pips_error *err);
void pips_agent_free(pips_agent *a);
const char *pips_agent_spec(const pips_agent *a);
bool pips_agent_move(pips_agent *a, const void *state, pips_move *out, pips_error *err);
bool pips_agent_observe_move(pips_agent *a, const void *state_before, pips_move m,
                             pips_error *err);
bool pips_agent_last_value(const pips_agent *a, double *value);

bool pips_playtest_request(const char *request, pips_str *out, pips_error *err);
bool pips_ladder_request(const char *request, pips_str *out, pips_error *err);
"""

CHANCE = -1  # State.to_move at a chance node (Ziggurat's dice)
OVER = -2    # State.to_move once the game is over
_MOVE_TEXT_MAX = 128

_ffi = FFI()
_ffi.cdef(_CDEF)


def _library_path():
    path = os.environ.get("PIPS_LIBRARY") or _paths.LIBRARY
    if not os.path.isabs(path):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), path)
    return os.path.normpath(path)


_lib = _ffi.dlopen(_library_path())
# The hot loop's calls, looked up once.
_NULL = _ffi.NULL
_buffer = _ffi.buffer
# ffi.unpack is a Python-level wrapper around the backend's; the backend's
# own saves a frame per ply (cffi has had it since 1.9).
_unpack = getattr(_ffi._backend, "unpack", _ffi.unpack)
_state_moves = _lib.pips_state_moves
_play = _lib.pips_play
_to_move = _lib.pips_state_to_move


class Error(ValueError):
    """A call refused by libpips; str(e) is the library's message and
    e.code its pips_status number (1: bad argument, 2: illegal, ...)."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def _raise(err):
    raise Error(_ffi.string(err.msg).decode("utf-8", "replace"), err.code)


def _new_error():
    return _ffi.new("pips_error *")


def _text_call(fn, *args):
    """Calls fn(*args, pips_str *out, pips_error *err) and returns the text."""
    out = _ffi.new("pips_str *")
    err = _new_error()
    _lib.pips_str_init(out, _ffi.NULL)
    try:
        if not fn(*args, out, err):
            _raise(err)
        return _ffi.string(_lib.pips_str_cstr(out)).decode("utf-8")
    finally:
        _lib.pips_str_free(out)


def _option_json(options):
    """Keyword options as the JSON object libpips reads (values: str, int, float, bool)."""
    for key, value in options.items():
        if not isinstance(value, (str, int, float, bool)):
            raise Error(f"option '{key}': expected a string, number or boolean, "
                        f"got {type(value).__name__}")
    return json.dumps(options)


def version():
    """The version of the libpips loaded ("MAJOR.MINOR.PATCH")."""
    return _ffi.string(_lib.pips_version()).decode()


def games():
    """The names of every game, in the table's order."""
    return [g["name"] for g in json.loads(_text_call(_lib.pips_games_json))]


class Game:
    """A configured game: Game("nimitz", board="3x3", colors=3). Options are
    checked by the library; a bad one raises Error naming it."""

    def __init__(self, name, **options):
        err = _new_error()
        handle = _lib.pips_game_new_json(str(name).encode(), _option_json(options).encode(),
                                         _ffi.NULL, err)
        if handle == _ffi.NULL:
            _raise(err)
        self._handle = _ffi.gc(handle, _lib.pips_game_free)
        self.name = _ffi.string(_lib.pips_game_name(handle)).decode()
        self.players = _lib.pips_game_players(handle, err)
        self._state_size = _lib.pips_game_state_size(handle)
        # A State copies its position before every move for undo() when it
        # is small, before every _snap_every-th move when it is large.
        self._snap_every = max(1, min(16, self._state_size // 4096))
        self._max_moves = _lib.pips_game_max_moves(handle)
        # Continuous-move games (Noname) list candidate moves drawn from this rng.
        self._rng = _ffi.new("pips_rng *")
        _lib.pips_rng_seed(self._rng, 0)
        self._moves = _ffi.new("pips_move[]", max(self._max_moves, 1))
        self._probs = _ffi.new("double[]", max(self._max_moves, 1))
        self._moves_err = _new_error()  # read only when moves() lists none
        # A rule script (option rules=FILE) or a Lua game (a NAME.lua path).
        self.scripted = _lib.pips_game_script(handle) != _ffi.NULL
        schema = json.loads(_text_call(_lib.pips_game_schema, handle))
        self.title = schema["title"]
        self.options = schema["options"]  # the schema: key, type, default, description...
        self.values = json.loads(_text_call(_lib.pips_game_options_json, handle))

    def start(self):
        """A new State at the start position."""
        return State(self)

    def seed(self, seed):
        """Seeds the rng that draws Noname's candidate moves (0 at creation)."""
        _lib.pips_rng_seed(self._rng, int(seed))

    def __repr__(self):
        opts = "".join(f", {k}={v!r}" for k, v in self.values.items())
        return f"pips.Game({self.name!r}{opts})"


def _script_check(game):
    """Raises Error when a hook of game's Lua script failed (then every
    position reads as over, docs/lua.md); clears the failure."""
    err = _new_error()
    if game.scripted and _lib.pips_game_failed(game._handle, err):
        _lib.pips_game_clear_failure(game._handle)
        _raise(err)


def _game_of(game, options):
    if isinstance(game, Game):
        if options:
            raise Error(f"options {sorted(options)} given with a configured Game")
        return game
    return Game(game, **options)


class State:
    """A position of a Game, changed in place by play() and undo()."""

    __slots__ = ("game", "_g", "_ptr", "_history", "_every", "_size", "_buffers", "_scripted",
                 "__weakref__")

    def __init__(self, game):
        err = _new_error()
        g = game._handle
        ptr = _lib.pips_state_new(g, err)
        if ptr == _ffi.NULL:
            _raise(err)
        self.game = game
        self._g = g
        self._ptr = _ffi.gc(ptr, lambda p, g=g: _lib.pips_state_free(g, p))
        # The history undo() reads, one entry per move played. A small state
        # (_every 1) keeps a copy of the position before each move. A large
        # one (Noname's 40 KB) keeps (copy, move) before every _every-th move
        # and the move alone before the others: undo replays the moves since
        # the copy (they were legal).
        self._history = []
        self._every = 1 if game.scripted else game._snap_every
        self._size = game._state_size
        self._buffers = (game._rng, game._moves, game._probs, game._moves_err)
        self._scripted = game.scripted

    @classmethod
    def from_text(cls, game, text, **options):
        """The state read from its exact text (str(state.text()))."""
        state = cls(_game_of(game, options))
        err = _new_error()
        if not _lib.pips_state_set_text(state._g, state._ptr, text.encode(), err):
            _raise(err)
        return state

    # ---- the hot loop: moves, play, to_move, over ----

    def moves(self):
        """The legal moves here (chance outcomes at a chance node), as ints."""
        rng, moves, probs, err = self._buffers
        n = _state_moves(self._g, self._ptr, rng, moves, probs, err)
        if not n and err.code:
            _raise(err)
        if self._scripted:
            _script_check(self.game)
        return _unpack(moves, n)

    def chance_outcomes(self):
        """At a chance node, [(move, probability)...]; [] elsewhere."""
        if self.to_move != CHANCE:
            return []
        game = self.game
        err = _new_error()
        n = _state_moves(self._g, self._ptr, game._rng, game._moves, game._probs, err)
        if not n and err.code:
            _raise(err)
        return list(zip(_ffi.unpack(game._moves, n), _ffi.unpack(game._probs, n)))

    def play(self, move):
        """Plays a move (an int from moves(), or its text) in place; an
        illegal move, or a move on which the game's Lua script fails, raises
        Error and changes nothing."""
        if move.__class__ is not int:
            move = self.parse(move) if isinstance(move, str) else int(move)
        history, every = self._history, self._every
        if every == 1 or len(history) % every == 0:
            before = _buffer(self._ptr, self._size)[:]
        else:
            before = None
        # No error buffer on the fast path: a refused move changes nothing,
        # so the call is repeated with one to get the message.
        if not _play(self._g, self._ptr, move, _NULL):
            err = _new_error()
            _play(self._g, self._ptr, move, err)
            if self._scripted:
                _script_check(self.game)
            _raise(err)
        if self._scripted:  # _every is 1: there is a copy
            try:
                _script_check(self.game)
            except Error:  # the script failed on this move: take it back
                _ffi.memmove(self._ptr, before, len(before))
                raise
        if before is None:
            history.append(move)
        else:
            history.append(before if every == 1 else (before, move))

    def child(self, move):
        """A new State: this one after move (this one is unchanged)."""
        c = self.copy()
        c.play(move)
        return c

    def undo(self):
        """Takes back the last move played on this State."""
        history, every = self._history, self._every
        if not history:
            raise Error("undo: no move to take back")
        entry = history.pop()
        if every == 1:
            _ffi.memmove(self._ptr, entry, len(entry))
            return
        last = len(history)  # the index of the move taken back
        first = last - last % every  # the move the newest copy was taken before
        if first == last:
            _ffi.memmove(self._ptr, entry[0], len(entry[0]))
            return
        before, move = history[first]
        _ffi.memmove(self._ptr, before, len(before))
        for m in [move] + history[first + 1:last]:  # replay since the copy
            if not _play(self._g, self._ptr, m, _NULL):
                raise Error("undo: a move of the history no longer replays")

    def copy(self):
        """An independent State at the same position (with its history)."""
        c = State(self.game)
        _ffi.memmove(c._ptr, self._ptr, self.game._state_size)
        c._history = list(self._history)
        return c

    __copy__ = copy

    @property
    def to_move(self):
        """The seat to move (0-based), or pips.CHANCE, or pips.OVER."""
        who = _to_move(self._g, self._ptr)
        if self._scripted:
            _script_check(self.game)
        return who

    @property
    def over(self):
        who = _to_move(self._g, self._ptr)
        if self._scripted:  # a failed script makes every position read as over
            _script_check(self.game)
        return who == OVER

    @property
    def returns(self):
        """Each seat's return in [0, 1] once the game is over (win 1, loss 0,
        a shared draw 0.5 each), else None."""
        if not self.over:
            return None
        out = _ffi.new("double[]", self.game.players)
        err = _new_error()
        if not _lib.pips_state_returns(self._g, self._ptr, out, err):
            _raise(err)
        return list(out)

    # ---- text ----

    def move_text(self, move):
        """The notation of a legal move."""
        buf = _ffi.new("char[]", _MOVE_TEXT_MAX)
        err = _new_error()
        if not _lib.pips_move_text(self._g, self._ptr, move, buf, err):
            _raise(err)
        return _ffi.string(buf).decode()

    def parse(self, text):
        """The move of a legal move text; Error says why when it is not."""
        m = _ffi.new("pips_move *")
        err = _new_error()
        if not _lib.pips_move_parse(self._g, self._ptr, text.encode(), m, err):
            _raise(err)
        return m[0]

    def text(self):
        """The exact state text (State.from_text reads it back)."""
        return _text_call(_lib.pips_state_text, self._g, self._ptr)

    def view(self):
        """The structured view as a dict, as `pips state --json` prints it."""
        return json.loads(_text_call(_lib.pips_state_view_json, self._g, self._ptr))

    def canonical(self):
        """A new State (without history) at the canonical form of this
        position: positions that the game's symmetries make equivalent
        (Nimitz: the board turned or reflected, colours and orientations
        renamed) have equal canonical forms, so comparing forms compares
        positions up to symmetry. Raises Error for a game without symmetries."""
        c = State(self.game)
        err = _new_error()
        if not _lib.pips_state_canonical(self._g, self._ptr, c._ptr, err):
            _raise(err)
        return c

    def render(self, unicode=False):
        """The terminal drawing."""
        return _text_call(_lib.pips_state_render, self._g, self._ptr, bool(unicode))

    def __str__(self):
        return self.render()

    def __repr__(self):
        return f"pips.State.from_text({self.game!r}, {self.text()!r})"

    def __eq__(self, other):
        return (isinstance(other, State) and other.game.name == self.game.name
                and other.game.values == self.game.values
                and _ffi.buffer(self._ptr, self.game._state_size)[:]
                == _ffi.buffer(other._ptr, other.game._state_size)[:])

    __hash__ = None


def _state_of(game, state, options):
    """state (checked to be of game), or game's start when state is None."""
    if state is None:
        return _game_of(game, options).start()
    if not isinstance(state, State):
        raise Error("state must be a pips.State")
    if game is not state.game:
        _check_same_game(_game_of(game, options), state)
    return state


def _check_same_game(game, state):
    err = _new_error()
    if not _lib.pips_state_check(game._handle, state._ptr, err):
        _raise(err)


def perft(game, depth, state=None, **options):
    """The number of move sequences of exactly depth plies from the start
    (or from state), counted in C."""
    s = _state_of(game, state, options)
    count = _ffi.new("uint64_t *")
    err = _new_error()
    if not _lib.pips_state_perft(s._g, s._ptr, int(depth), count, err):
        _raise(err)
    _script_check(s.game)
    return int(count[0])


def _solve(game, state, moves, threads, table_mb, max_seconds, options):
    s = _state_of(game, state, options)
    request = json.dumps({"moves": moves, "threads": threads, "table_mb": table_mb,
                          "max_seconds": max_seconds})
    doc = json.loads(_text_call(_lib.pips_solve_json, s._g, s._ptr, request.encode()))
    _script_check(s.game)
    return doc


def solve(game, state=None, *, threads=1, table_mb=0, max_seconds=0, **options):
    """The exact value of the start (or of state) for the player to move:
    "win", "loss" or "draw". table_mb 0: the library's default budget;
    max_seconds 0: no limit (Error when a budget runs out)."""
    return _solve(game, state, False, threads, table_mb, max_seconds, options)["value"]


def solve_moves(game, state=None, *, threads=1, table_mb=0, max_seconds=0, **options):
    """{move text: "win"|"loss"|"draw"} for every legal move: the value for
    the player to move after playing it."""
    doc = _solve(game, state, True, threads, table_mb, max_seconds, options)
    return {m["move"]: m["value"] for m in doc["moves"]}


class Agent:
    """An agent from a spec ("random", "mcts:iters=1000", "hard"...) for a
    game (a Game or a name); seed makes its choices reproducible."""

    def __init__(self, spec, game, seed=0, **options):
        self.game = _game_of(game, options)
        err = _new_error()
        handle = _lib.pips_agent_new(self.game._handle, str(spec).encode(), int(seed), err)
        if handle == _ffi.NULL:
            _raise(err)
        # The destructor holds the game's handle: an agent is freed before its game.
        self._handle = _ffi.gc(handle, lambda p, g=self.game._handle: _lib.pips_agent_free(p))
        self.spec = _ffi.string(_lib.pips_agent_spec(handle)).decode()

    def choose(self, state):
        """The agent's move (an int) for the seat to move in state."""
        if not isinstance(state, State):
            raise Error("choose: state must be a pips.State")
        m = _ffi.new("pips_move *")
        err = _new_error()
        # the library refuses a state of another game (or other options)
        if not _lib.pips_agent_move(self._handle, state._ptr, m, err):
            _raise(err)
        _script_check(self.game)
        return m[0]

    def observe(self, state, move):
        """Tells the agent that move (an int, or its text) was played from
        state, the position before it, by any seat or the dice, so that its
        next search can build on this one (MCTS keeps the subtree under the
        move). An illegal move, or a state of another game, raises Error and
        leaves the agent as it was."""
        if not isinstance(state, State):
            raise Error("observe: state must be a pips.State")
        if move.__class__ is not int:
            move = state.parse(move) if isinstance(move, str) else int(move)
        err = _new_error()
        if not _lib.pips_agent_observe_move(self._handle, state._ptr, move, err):
            _raise(err)
        _script_check(self.game)

    @property
    def last_value(self):
        """The root value of the last search (in [0, 1], for the mover), or None."""
        v = _ffi.new("double *")
        return v[0] if _lib.pips_agent_last_value(self._handle, v) else None

    def __repr__(self):
        return f"pips.Agent({self.spec!r}, {self.game!r})"


def _values_list(values):
    return list(values) if isinstance(values, (list, tuple, range)) else values


def playtest(game, seats, games=100, seed=1, vary=None, *, vs=None, seating=None, threads=1,
             decisive=0.8, exact_seconds=0, out=None, **options):
    """Plays games between agents and returns the report: the dict of
    report.json (`pips playtest`). seats: one spec per seat, or one for all;
    vary={"key": [values]} sweeps rule variants on the same seeds; vs={...}
    compares a second rule set; seating: "rotate" (default), "all" or
    "fixed"; out: a directory to write the whole report into as well."""
    if isinstance(game, Game):
        if options:
            raise Error(f"options {sorted(options)} given with a configured Game")
        game, options = game.name, dict(game.values)
    _option_json(options)
    request = {"game": game, "seats": [seats] if isinstance(seats, str) else list(seats),
               "games": games, "seed": seed, "threads": threads, "options": options,
               "decisive": decisive, "exact_seconds": exact_seconds}
    if vary:
        request["vary"] = {k: _values_list(v) for k, v in vary.items()}
    if vs:
        request["vs"] = dict(vs)
    if seating:
        request["seating"] = seating
    if out is not None:
        request["out"] = os.fspath(out)
    return json.loads(_text_call(_lib.pips_playtest_request, json.dumps(request).encode()))


def ladder(game, agents, games=20, seed=1, *, threads=1, prior=1, out=None, **options):
    """Rates agents by a round robin (`pips ladder`) and returns the ratings
    as a dict: "agents" best first with Elo and 95% intervals, and "pairs"."""
    if isinstance(game, Game):
        if options:
            raise Error(f"options {sorted(options)} given with a configured Game")
        game, options = game.name, dict(game.values)
    _option_json(options)
    request = {"game": game, "agents": list(agents), "games": games, "seed": seed,
               "threads": threads, "prior": prior, "options": options}
    if out is not None:
        request["out"] = os.fspath(out)
    return json.loads(_text_call(_lib.pips_ladder_request, json.dumps(request).encode()))
