/*
 * pips/game.h — the one game interface every game implements, the table of
 * games, and the generic helpers built on the interface.
 *
 * A game is a pips_game_def: data plus function pointers whose contract is
 * written beside each field. A configured game (options parsed and
 * validated) is a pips_game. States are fixed-size plain values of
 * def->state_size bytes: copy them with memcpy, compare them with memcmp.
 * A game keeps unused bytes of its state zeroed so that equal positions are
 * byte-equal. Moves are 64-bit integers whose meaning is private to the game.
 *
 * Chance (Ziggurat's dice) is a node whose to_move is PIPS_CHANCE; its
 * outcomes are moves too, listed with probabilities by chance_outcomes and
 * applied with apply, so records, perft and agents treat them uniformly.
 */
#ifndef PIPS_GAME_H
#define PIPS_GAME_H

#include "pips/core.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

typedef uint64_t pips_move;
#define PIPS_MOVE_NONE UINT64_MAX

#define PIPS_MAX_PLAYERS 8
#define PIPS_MAX_OPTIONS 16
#define PIPS_OPT_KEY_MAX 32
#define PIPS_OPT_VALUE_MAX 256
#define PIPS_MOVE_TEXT_MAX 128

/* to_move() results besides a player index 0..n-1. */
enum { PIPS_CHANCE = -1, PIPS_OVER = -2 };

/* def->flags */
enum {
    PIPS_GAME_CHANCE = 1u << 0,         /* has chance nodes */
    PIPS_GAME_NOT_ENUMERABLE = 1u << 1, /* continuous moves: use candidates */
    PIPS_GAME_IMPARTIAL = 1u << 2,      /* players share every piece */
    PIPS_GAME_MOVE_TEXT_FIXED = 1u << 3 /* move_to_text reads the move (and the options),
                                           never the state: rule scripts cache the texts */
};

/* The type of an option's value: its schema (pips list --json, the web lobby). */
typedef enum pips_option_type {
    PIPS_OPT_TEXT = 0, /* text the game parses itself; `pattern` describes the form */
    PIPS_OPT_INT,      /* a whole number in min..max, or one of `choices` (words like "auto") */
    PIPS_OPT_BOOL,     /* true or false */
    PIPS_OPT_CHOICE    /* one of `choices` */
} pips_option_type;

/* One option of a game and its schema. Every default must pass
 * pips_option_check against its own entry. */
typedef struct pips_option_def {
    const char *key;
    const char *default_value;
    const char *help;          /* one line: what the option does (ruling ids where they apply) */
    pips_option_type type;
    long min, max;             /* PIPS_OPT_INT: the accepted range */
    const char *const *choices; /* NULL-terminated: CHOICE's values; INT's extra words or NULL */
    const char *pattern;       /* PIPS_OPT_TEXT: the accepted form, e.g. "RxC or coaster" */
} pips_option_def;

/* A resolved option set: every key of the game, defaults filled in. */
typedef struct pips_options {
    size_t n;
    struct {
        char key[PIPS_OPT_KEY_MAX];
        char value[PIPS_OPT_VALUE_MAX];
    } kv[PIPS_MAX_OPTIONS];
} pips_options;

/* Returns the value of key, or NULL when the game has no such option. */
const char *pips_options_get(const pips_options *o, const char *key);

/* Option readers for configure hooks. Each reads key from o; on a bad value
 * it fails with "option 'KEY': 'VALUE' is not ..." naming what is accepted. */
bool pips_option_int(const pips_options *o, const char *key, long lo, long hi, long *out,
                     pips_error *err);
bool pips_option_bool(const pips_options *o, const char *key, bool *out, pips_error *err);
/* choices is NULL-terminated; *out is the index of the value among them. */
bool pips_option_choice(const pips_options *o, const char *key, const char *const *choices,
                        int *out, pips_error *err);

typedef struct pips_render_opts {
    bool unicode; /* box drawing and symbols; ASCII otherwise */
    bool colour;  /* ANSI colours */
} pips_render_opts;

typedef struct pips_game pips_game;
typedef struct pips_game_def pips_game_def;
typedef struct pips_solve_result pips_solve_result;
typedef struct pips_solve_opts pips_solve_opts;
/* An exact value for the player to move (solvers, books). */
typedef enum pips_value { PIPS_LOSS = -1, PIPS_DRAW = 0, PIPS_WIN = 1 } pips_value;
struct json_t; /* jansson's object type (pips/view.h) */

/* The Lua script a game definition comes from (docs/lua.md): a rule script
 * over a built-in game or a whole game. Records embed it. */
typedef struct pips_script {
    const char *file;        /* the path given, or the name a record carried */
    const char *text;        /* the script's text (NUL-terminated) */
    size_t len;
    char sha256[65];         /* of the text, lower-case hex */
    const char *description; /* the script's `description`, or NULL */
} pips_script;

/* The entry of key in def's option table, or NULL. */
const pips_option_def *pips_option_def_find(const pips_game_def *def, const char *key);
/* Checks value against the option's schema (range, words, choices, bool);
 * text options are left to the game's configure. False with *err naming the
 * key and what is accepted. pips_game_new checks every value this way. */
bool pips_option_check(const pips_option_def *od, const char *value, pips_error *err);
/* The accepted values of an option in one short line ("2..6", "d8|d6",
 * "true|false", "auto or 0..1000000", or the text pattern) into out. */
void pips_option_accepts(const pips_option_def *od, pips_str *out);
/* Readers for configure hooks driven by g's option table: the range or the
 * choices come from the key's schema entry, so the hook does not repeat
 * them. pips_game_opt_int fails on a word of an INT option (the hook tests
 * words like "auto" first). *out of a choice is its index in `choices`. */
bool pips_game_opt_int(const pips_game *g, const char *key, long *out, pips_error *err);
bool pips_game_opt_bool(const pips_game *g, const char *key, bool *out, pips_error *err);
bool pips_game_opt_choice(const pips_game *g, const char *key, int *out, pips_error *err);
/* Writes def's option schema as one JSON object into out: {"name", "title",
 * "options": [{"key", "type" ("int", "bool", "choice" or "text"), "default",
 * "description", and "min"/"max" (+ "words"), "choices" or "pattern"}]}.
 * Defaults are strings, as options are given ("key=value"). */
bool pips_game_schema_json(const pips_game_def *def, pips_str *out, pips_error *err);

/* A game definition: its hooks take (game, state) pairs unchecked, by
 * contract (the engine-level interface, called per ply in searches): the
 * caller answers that state is one of g's. The checked calls are listed at
 * pips_state_check. */
struct pips_game_def {
    const char *name;       /* lower-case id used on the command line: "tictacdoh" */
    const char *title;      /* "Tic Tac Doh!" */
    const char *rules_text; /* the rules as implemented, citing ruling ids */
    const char *notation_text; /* the move notation, with examples */
    const pips_option_def *options;
    size_t n_options;
    size_t config_size; /* bytes of the private config built by configure */
    size_t state_size;  /* bytes of one state; the same for every config */
    unsigned flags;
    /* Fixed workload for `pips bench`: perft depth and playout count. */
    int bench_perft_depth;
    int bench_playouts;
    /* Optional game-specific benchmarks for `pips bench`: runs them and
     * appends one line per figure to out. May be NULL. */
    void (*bench_extra)(const pips_game *g, pips_str *out);

    /* Reads g->options (keys and values already checked against the option
     * table's schema, defaults filled in) into
     * config. Returns true on success, otherwise *err names the bad option
     * and value. May use g->alloc; must not keep pointers into g->options. */
    bool (*configure)(const pips_game *g, void *config, pips_error *err);
    /* Releases what configure allocated. May be NULL. */
    void (*release)(const pips_game *g, void *config);

    /* Number of seats (players). */
    int (*num_players)(const pips_game *g);
    /* Upper bound on how many moves legal_moves, chance_outcomes or
     * candidates ever writes for this config. */
    size_t (*max_moves)(const pips_game *g);
    /* Writes the start position into state (state_size bytes). */
    void (*initial)(const pips_game *g, void *state);
    /* The seat to move, or PIPS_CHANCE, or PIPS_OVER when the game is over. */
    int (*to_move)(const pips_game *g, const void *state);
    /* Writes every legal move of a decision node and returns how many (0 at a
     * chance node or a terminal state). Each move appears once. For a
     * NOT_ENUMERABLE game this may be NULL. A forced pass is a move. */
    size_t (*legal_moves)(const pips_game *g, const void *state, pips_move *out);
    /* Optional fast count of legal_moves (perft bulk counting). May be NULL. */
    size_t (*count_moves)(const pips_game *g, const void *state);
    /* At a chance node: writes the outcomes and their probabilities (summing
     * to 1) and returns how many. NULL for games without chance. */
    size_t (*chance_outcomes)(const pips_game *g, const void *state, pips_move *out,
                              double *prob);
    /* Returns true when m is legal in state (a decision or a chance outcome),
     * otherwise false with *err explaining why. May be NULL for enumerable
     * games: then legality is membership in legal_moves/chance_outcomes. */
    bool (*check_move)(const pips_game *g, const void *state, pips_move m, pips_error *err);
    /* Plays m, which must be legal, changing state in place. */
    void (*apply)(const pips_game *g, void *state, pips_move m);
    /* Optional inverse of apply where cheap: given the state after m, restores
     * the state before m exactly. NULL when a game does not provide it. */
    void (*undo)(const pips_game *g, void *state, pips_move m);
    /* At a terminal state: the return of every seat in [0, 1]; a win is 1, a
     * loss 0, a shared draw 0.5 for each seat in it. */
    void (*returns)(const pips_game *g, const void *state, double *out);
    /* Optional: scores (game points) per seat at any state. NULL if none. */
    void (*scores)(const pips_game *g, const void *state, int *out);
    /* Writes a short result for records and screens ("X wins", "draw"). */
    void (*result_text)(const pips_game *g, const void *state, pips_str *out);
    /* Optional: at a terminal state, true when a turn or move cap stopped
     * the game (a draw by limit) rather than its rules' own ending. NULL
     * when the game has no cap. The playtest lab reports the cap rate. */
    bool (*capped)(const pips_game *g, const void *state);
    /* Optional: the turns begun up to state. A turn is one seat's whole
     * turn, from when it becomes the seat's turn until the turn passes; a
     * pass or a skipped turn counts, and a roll belongs to the turn it
     * starts. *per_round receives the turns in one round (each seat, or
     * each colour that takes turns, having had one). NULL when every turn
     * starts at a decision whose mover differs from the last decision's:
     * the playtest lab then counts turns from the seat to move. */
    uint32_t (*turns)(const pips_game *g, const void *state, int *per_round);

    /* Move text: writes the notation of m, legal in state, into buf
     * (PIPS_MOVE_TEXT_MAX bytes). */
    void (*move_to_text)(const pips_game *g, const void *state, pips_move m, char *buf);
    /* Parses move text in the context of state. Returns false with *err on a
     * malformed text; a well-formed but illegal move may parse (check_move
     * decides legality). */
    bool (*move_from_text)(const pips_game *g, const void *state, const char *text,
                           pips_move *m, pips_error *err);
    /* State text: a complete, exact description that state_from_text reads
     * back to a byte-equal state. */
    void (*state_to_text)(const pips_game *g, const void *state, pips_str *out);
    bool (*state_from_text)(const pips_game *g, const char *text, void *state,
                            pips_error *err);
    /* Zobrist hash of the position (equal states, equal hashes). */
    uint64_t (*hash)(const pips_game *g, const void *state);
    /* Draws the position for a terminal, ending with a newline. */
    void (*render)(const pips_game *g, const void *state, const pips_render_opts *ro,
                   pips_str *out);
    /* Optional structured view for board drawings: adds the game's members
     * (cells, pieces, supplies, dice... with coordinates) to the jansson
     * object view, which already holds the generic ones (pips/view.h; the
     * members of each game are documented in docs/architecture.md). Returns
     * false when an allocation failed. */
    bool (*state_view)(const pips_game *g, const void *state, struct json_t *view);

    /* ---- optional hooks for AI; every agent works without them ---- */
    /* Candidate moves for AI and "suggest" (NOT_ENUMERABLE games): writes up
     * to max_moves legal moves chosen with rng, returns how many. */
    size_t (*candidates)(const pips_game *g, const void *state, pips_rng *rng,
                         pips_move *out);
    /* Optional fast path for playouts: a uniformly random legal move of a
     * decision node (the same distribution as picking from legal_moves).
     * Returns false when there is none. */
    bool (*random_move)(const pips_game *g, const void *state, pips_rng *rng, pips_move *out);
    /* Optional fast path for playouts at a chance node: an outcome drawn with
     * its probability (the same distribution as chance_outcomes). Returns
     * false when the state is not a chance node. */
    bool (*sample_chance)(const pips_game *g, const void *state, pips_rng *rng, pips_move *out);
    /* Optional light playout policy: a legal move of a decision node drawn
     * with rng from the game's policy, cheap (about the cost of random_move),
     * every legal move possible but not necessarily uniform. Used by
     * pips_policy_playout. Returns false when there is none. */
    bool (*playout_move)(const pips_game *g, const void *state, pips_rng *rng, pips_move *out);
    /* Heuristic value of a non-terminal state per seat in [0, 1]. */
    void (*evaluate)(const pips_game *g, const void *state, double *out);
    /* Move-ordering hint: higher scores are searched first. */
    void (*order_moves)(const pips_game *g, const void *state, const pips_move *moves,
                        size_t n, int *scores);
    /* Strength levels: the agent specs for easy, medium, hard and max in this
     * game with two seats, from its measured ladder (docs/ai.md). A NULL
     * entry takes the generic row in src/ai/agent.c. */
    const char *levels[4];
    /* The levels with three or more seats: levels_n[0] for 3 seats,
     * levels_n[1] for 4, levels_n[2] for 5 or more. A NULL entry takes the
     * row for one seat fewer (down to 3), then the generic N-seat row in
     * src/ai/agent.c. Every entry must be a spec the game accepts at that
     * seat count (tests/test_agents.c checks it): a level never falls back
     * silently. */
    const char *levels_n[3][4];
    /* Canonical form under the game's symmetries: writes into out a state
     * equivalent for play (same value) that is equal for all symmetric
     * variants of state. NULL means the identity. */
    void (*canonical)(const pips_game *g, const void *state, void *out);
    /* A game-specific exact solver (e.g. impartial Nimitz) from state, a
     * live two-player position; with so->move_values set it also fills the
     * value of every legal move (see pips_solve_moves). NULL means the
     * generic solver is used. */
    bool (*solve)(const pips_game *g, const void *state, const pips_solve_opts *so,
                  pips_solve_result *res, pips_error *err);
    /* Optional book of positions solved ahead of time: true with *v, the
     * exact value for the player to move, when the book holds state (a live
     * two-player position); false otherwise. Cheap: the oracle asks it of
     * every child before it searches. NULL means no book. */
    bool (*known_value)(const pips_game *g, const void *state, pips_value *v);

    /* ---- definitions built at run time from Lua (src/lua/, docs/lua.md) ---- */
    /* The script; NULL for the built-in games. */
    const pips_script *script;
    /* Reference count of a run-time definition: every configured game holds
     * one (+1 when built, -1 when freed); the last release frees it. NULL
     * for static definitions. */
    void (*hold)(const pips_game_def *def, int delta);
    /* A scripted game's hooks can fail at run time (a script error, a step or
     * memory limit, a wrong return value). After a failure every position
     * reads as over until it is cleared; this returns true with *err, the
     * first failure (naming file, line and function), and clears it when
     * asked. NULL: the game never fails. */
    bool (*failure)(const pips_game *g, pips_error *err, bool clear);
};

/* A configured game. Create with pips_game_new, free with pips_game_free. */
struct pips_game {
    const pips_game_def *def;
    pips_options options; /* every option, defaults filled in */
    const pips_allocator *alloc;
    void *config; /* def->config_size bytes, built by def->configure */
    /* A digest of options, set by pips_game_new: a state from pips_state_new
     * carries it, and pips_state_check compares it without rehashing. */
    uint64_t options_key;
};

/* ---- the table of games ---------------------------------------------------- */

size_t pips_game_count(void);
const pips_game_def *pips_game_def_at(size_t i);
/* The game named name, compared without regard to ASCII case; NULL if none. */
const pips_game_def *pips_game_find(const char *name);
/* A definition by name: a built-in game, or a path ending in ".lua" (a
 * whole game in Lua, docs/lua.md). Release it with pips_game_def_release
 * (a no-op for built-in games); configured games hold their own reference. */
const pips_game_def *pips_game_def_load(const char *name, pips_error *err);
void pips_game_def_release(const pips_game_def *def);
/* True when name is a Lua game's path (ends in ".lua"). */
bool pips_game_name_is_lua(const char *name);

/* Builds a configured game from "key=value" strings (n of them). Unknown
 * keys, repeated keys, malformed pairs and bad values are errors naming the
 * key. alloc may be NULL. */
pips_game *pips_game_new(const char *name, const char *const *kv, size_t n,
                         const pips_allocator *alloc, pips_error *err);
/* Same for a definition already in hand (src/core uses this: it never looks
 * games up by name). */
pips_game *pips_game_new_def(const pips_game_def *def, const char *const *kv, size_t n,
                             const pips_allocator *alloc, pips_error *err);
/* Same from a resolved option set (keys are still checked). */
pips_game *pips_game_new_opts(const pips_game_def *def, const pips_options *opts,
                              const pips_allocator *alloc, pips_error *err);
void pips_game_free(pips_game *g);
/* pips_game_new with the script's text given (a record's embedded copy)
 * instead of read from disk: the text of the rule script named by the
 * option rules=FILE, or of the Lua game when name ends in ".lua" (or no
 * built-in game has that name). file names the script in messages. */
pips_game *pips_game_new_script(const char *name, const char *const *kv, size_t n,
                                const char *file, const char *text,
                                const pips_allocator *alloc, pips_error *err);
/* SHA-256 of len bytes as 64 lower-case hex digits and a NUL. */
void pips_sha256_hex(const void *data, size_t len, char out[65]);
/* The script g runs (a rule script or a Lua game), or NULL. */
const pips_script *pips_game_script(const pips_game *g);
/* True (with *err naming file, line, function) when a hook of g's script
 * failed since the last pips_game_clear_failure: then every position reads
 * as over. Front ends check it after a move, a search, a perft or a game and
 * report the message with the ply. Always false for the built-in games. */
bool pips_game_failed(const pips_game *g, pips_error *err);
void pips_game_clear_failure(const pips_game *g);

/* ---- generic helpers over the interface ------------------------------------ */

static inline int pips_num_players(const pips_game *g) { return g->def->num_players(g); }
static inline size_t pips_max_moves(const pips_game *g) { return g->def->max_moves(g); }
static inline int pips_to_move(const pips_game *g, const void *s) { return g->def->to_move(g, s); }

/* A new state holding g's start position (state_size bytes; copy another
 * position into it with memcpy), or NULL with *err (PIPS_ERR_ARG for a NULL
 * game, PIPS_ERR_NOMEM). Free it with pips_state_free and the same game. */
void *pips_state_new(const pips_game *g, pips_error *err);
/* True when state, from pips_state_new, is a state of a game with g's
 * definition and options; false with *err (PIPS_ERR_ARG) for NULL, a state
 * of another game or of other options, or a pointer that is not one of
 * pips_state_new's (when its tag's bytes say so; a state freed or not from
 * pips_state_new cannot always be told). These calls check their state with
 * it (PIPS_ERR_ARG, nothing read as a position): every call of pips/ffi.h;
 * pips_agent_choose, pips_agent_analyze and pips_agent_observe (which
 * ignores such a state); pips_solve_position, pips_solve_moves,
 * pips_solve_from and pips_solver_moves; pips_state_view, pips_state_object
 * and pips_state_json. They take only states from pips_state_new. The
 * helpers below (pips_node_moves, pips_perft, pips_play_text ...) and the
 * def's hooks trust the (game, state) pair instead, by contract: they are
 * the engine's own interface, run on states on the stack and in search
 * buffers, millions of times a second. */
bool pips_state_check(const pips_game *g, const void *state, pips_error *err);
/* Frees a state from pips_state_new (NULL is a no-op), with the allocator
 * of the game that made it: g is not dereferenced, and may be freed already (a
 * garbage collector frees in any order). */
void pips_state_free(const pips_game *g, void *state);

/* Moves at any node: decisions (legal_moves, or candidates with rng for
 * non-enumerable games), or chance outcomes with probabilities in prob
 * (prob may be NULL). Returns the count; out holds max_moves entries. */
size_t pips_node_moves(const pips_game *g, const void *state, pips_rng *rng, pips_move *out,
                       double *prob);
/* Validates m in state (check_move or membership); false with *err. */
bool pips_check_move(const pips_game *g, const void *state, pips_move m, pips_error *err);
/* Parses text and checks legality; on success *m holds the move. The state
 * is not changed either way. */
bool pips_parse_move(const pips_game *g, const void *state, const char *text, pips_move *m,
                     pips_error *err);
/* Validated play: parse + check + apply. On failure state is untouched. */
bool pips_play_text(const pips_game *g, void *state, const char *text, pips_error *err);

/* Counts move sequences of exactly depth plies (chance outcomes count as
 * plies) from state. Requires enumerable moves. */
uint64_t pips_perft(const pips_game *g, const void *state, int depth);
/* The same, telling an allocation failure (false, PIPS_ERR_NOMEM) from a
 * count of 0; pips_perft returns 0 then. */
bool pips_perft_count(const pips_game *g, const void *state, int depth, uint64_t *count,
                      pips_error *err);

/* Plays uniformly random moves (chance by its probabilities) from state to
 * the end; returns the number of plies played. state ends terminal or after
 * max_plies plies. */
size_t pips_random_playout(const pips_game *g, void *state, pips_rng *rng, pips_move *buf,
                           size_t max_plies);

/* The same, but decisions come from the game's playout_move policy when it
 * has one (otherwise exactly pips_random_playout). Agents' playouts use this. */
size_t pips_policy_playout(const pips_game *g, void *state, pips_rng *rng, pips_move *buf,
                           size_t max_plies);

/* Samples one chance outcome by probability. n > 0. */
size_t pips_sample_chance(pips_rng *rng, const double *prob, size_t n);
/* The index pips_sample_chance gives for n equal probabilities 1/n, from the
 * same single draw (so a game's sample_chance hook may use it and seeded
 * playouts stay the same); immediate when n is a power of two. n > 0. */
size_t pips_sample_equal(pips_rng *rng, size_t n);

/* ---- exact solving ---------------------------------------------------------- */


/* What a long solve reports now and then. */
typedef struct pips_solve_progress {
    uint64_t positions;  /* stored so far */
    uint64_t nodes;      /* visited so far */
    double seconds;
    double table_fill;   /* used share of the table, 0..1 */
    size_t table_bytes;  /* the table's size */
} pips_solve_progress;

struct pips_solve_opts {
    int threads;          /* worker threads (>= 1) */
    size_t table_mb;      /* memory budget of the tables in MiB; 0: pips_solve_default_mb() */
    /* Called now and then on long runs (may be NULL). */
    void (*progress)(void *ud, const pips_solve_progress *p);
    void *progress_ud;
    double max_seconds;   /* > 0: give up (PIPS_ERR_LIMIT) after this long */
    uint64_t max_nodes;   /* > 0: give up (PIPS_ERR_LIMIT) after visiting this many */
    /* pips_solve_moves: where the moves and their values go (max_moves each). */
    pips_move *moves;
    pips_value *move_values;
};

struct pips_solve_result {
    pips_value value;       /* for the player to move at the start */
    uint64_t positions;     /* distinct positions solved (stored) */
    uint64_t nodes;         /* nodes visited */
    double seconds;
    size_t memory_bytes;    /* peak memory of the tables */
    size_t n_moves;         /* pips_solve_moves: moves written */
    pips_move best_move;    /* a winning move when value is PIPS_WIN, else PIPS_MOVE_NONE */
    /* Set when a call failed on its budget after settling the position itself
     * but not all its moves (pips_solve_moves, the Nimitz solver): value and
     * best_move hold, n_moves is 0. */
    bool value_known;
};

/* The memory budget a solve takes when opts->table_mb is 0: half the
 * memory the system reports available, at least 64 MiB and at most
 * PIPS_SOLVE_MAX_DEFAULT_MB (so a run stays under 12 GiB resident). */
#define PIPS_SOLVE_MAX_DEFAULT_MB 11264
size_t pips_solve_default_mb(void);

/* Solves a two-player deterministic game from its start position. so may be
 * NULL (one thread, no progress). */
bool pips_solve(const pips_game *g, const pips_solve_opts *so, pips_solve_result *res,
                pips_error *err);
/* The same from any live position (through the game's own solver when it
 * has one). Fails with PIPS_ERR_LIMIT when the time, node or memory budget
 * runs out (the message names it), PIPS_ERR_UNSUPPORTED at once for a game
 * or position the solver cannot handle. state must come from pips_state_new
 * (PIPS_ERR_ARG for another game's or options', see pips_state_check), as
 * for every solving call below. */
bool pips_solve_position(const pips_game *g, const void *state, const pips_solve_opts *so,
                         pips_solve_result *res, pips_error *err);
/* Solves every legal move of a live position: so->moves[i] and
 * so->move_values[i] (the value for the player to move in state after
 * playing it) for i < res->n_moves; res->value is the position's. The
 * budgets of so cover the whole call. For hints and the oracle agent. */
bool pips_solve_moves(const pips_game *g, const void *state, const pips_solve_opts *so,
                      pips_solve_result *res, pips_error *err);
/* A solver that keeps its table between calls (the generic solver's; a
 * game's own solver starts afresh each call): for an agent solving one
 * position after another. Budgets of so apply to each call. */
typedef struct pips_solver pips_solver;
pips_solver *pips_solver_new(const pips_game *g, const pips_solve_opts *so, bool use_canonical,
                             pips_error *err);
/* With moves and values (max_moves each): pips_solve_moves; with both NULL:
 * the position's value alone (pips_solve_position). */
bool pips_solver_moves(pips_solver *ps, const void *state, pips_move *moves,
                       pips_value *values, pips_solve_result *res, pips_error *err);
/* Sets the time budget of later calls (seconds; 0: none). */
void pips_solver_set_seconds(pips_solver *ps, double seconds);
void pips_solver_free(pips_solver *ps);
/* The generic solver from any position; canonical forms are
 * used when use_canonical is set and the game has them. */
bool pips_solve_from(const pips_game *g, const void *state, bool use_canonical,
                     const pips_solve_opts *so, pips_solve_result *res, pips_error *err);
const char *pips_value_name(pips_value v);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
