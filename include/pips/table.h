/*
 * pips/table.h — the match driver: one match, one player per seat, and the
 * loop that runs them. `pips play`, `pips playtest`, `pips serve` and
 * `pips engine` all run their games through a table and keep only their own
 * input and output, so a game, its options, its seats and a seed give the
 * same moves in every front end.
 *
 * Seeding, the one documented way (the front ends rely on it):
 *   - the match draws every chance outcome from its seed (pips_match_roll);
 *   - the agent of seat s is made with pips_table_seat_seed(seed, s);
 *   - game i of a series (a playtest) uses pips_table_game_seed(seed, i),
 *     and game 0 uses the seed itself.
 * Every agent observes every move (chance outcomes too) right after it is
 * played, so search trees carry over from move to move.
 *
 * Resignation: in a two-player game (or when one seat is left) the game
 * ends and the seats still in share the win. With three or more seats a
 * resigning seat drops out: its pieces stay, its later turns are played by
 * a `random` agent (its "autopilot"), and it scores 0 whatever happens.
 *
 * Invariants: a failed call changes nothing; the table owns its match and
 * agents; no call prints, exits or reads a clock except to time agents.
 */
#ifndef PIPS_TABLE_H
#define PIPS_TABLE_H

#include "pips/agent.h"
#include "pips/match.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

typedef struct pips_table pips_table;

typedef enum pips_table_event_kind {
    PIPS_TABLE_MOVE,   /* a seat's decision was played */
    PIPS_TABLE_CHANCE, /* a chance outcome was rolled (or given) and played */
    PIPS_TABLE_UNDO,   /* moves were taken back; ply is the new move count */
    PIPS_TABLE_RESIGN, /* seat resigned */
    PIPS_TABLE_OVER    /* the game ended (after the event that ended it) */
} pips_table_event_kind;

typedef struct pips_table_event {
    pips_table_event_kind kind;
    int seat;            /* who moved or resigned; -1 for chance */
    pips_move move;      /* MOVE, CHANCE */
    size_t ply;          /* MOVE, CHANCE: the move's index in the match; UNDO: moves left */
    const void *before;  /* MOVE, CHANCE: the state before the move */
    bool by_agent;       /* MOVE: chosen by the seat's agent (or autopilot) */
    double seconds;      /* MOVE by an agent: its thinking time */
} pips_table_event;

/* Called after each event; t is in its new state. Must not change t. */
typedef void (*pips_table_listener)(void *ud, const pips_table *t, const pips_table_event *ev);

/* Ceilings on agents' budgets (a server's limits); 0 means no ceiling.
 * Work budgets (evals=, positions=, alphabeta's nodes=) have none here: a
 * front end bounds their time with pips_agent_set_time_cap. The fields
 * after max_depth bound what time cannot: processor threads and memory. */
typedef struct pips_table_limits {
    double max_seconds;  /* time=S per move */
    long max_iters;      /* iters=N */
    long max_depth;      /* depth=N */
    long max_threads;    /* threads=T */
    long max_table_mb;   /* table_mb=MB (oracle) and tt=MB (alphabeta) */
    long max_tree_nodes; /* mcts nodes=N, the size of its tree's arena */
} pips_table_limits;

/* The seed of seat s's agent in a match seeded with seed. */
uint64_t pips_table_seat_seed(uint64_t seed, int seat);
/* The match seed of game i in a series seeded with seed (game 0: seed). */
uint64_t pips_table_game_seed(uint64_t seed, uint64_t i);

/* True when seat names a person ("human") rather than an agent spec. */
bool pips_seat_is_human(const char *seat);
/* Checks an agent spec against limits (also after a level such as "max"
 * is resolved); false with *err naming the budget and the ceiling. */
bool pips_table_check_spec(const pips_game *g, const char *spec, const pips_table_limits *lim,
                           pips_error *err);

/* A table over match m with these seats ("human" or an agent spec, one per
 * seat, n == the number of players; seats NULL keeps m's seats). Agents are
 * made with pips_table_seat_seed(m->seed, s). On success the table owns m;
 * on failure the caller keeps m and *err names the bad seat. lim may be NULL. */
pips_table *pips_table_new(pips_match *m, const char *const *seats, int n,
                           const pips_table_limits *lim, pips_error *err);
void pips_table_free(pips_table *t);

/* The match (moves, history, seats, record). Change it only through the table. */
pips_match *pips_table_match(const pips_table *t);
const pips_game *pips_table_game(const pips_table *t);
void pips_table_listen(pips_table *t, pips_table_listener fn, void *ud);
/* When set (the default), every chance event that falls due is rolled from
 * the match dice at once; when clear, chance waits for pips_table_roll or a
 * given outcome (pips_table_play at a chance node). */
void pips_table_set_auto_roll(pips_table *t, bool on);

/* The seat's agent, or NULL for a human seat. */
pips_agent *pips_table_agent(const pips_table *t, int seat);
/* The seat to move, PIPS_CHANCE, or PIPS_OVER (game over or resigned out). */
int pips_table_to_move(const pips_table *t);
bool pips_table_over(const pips_table *t);
/* True when the seat to move is played by an agent (or an autopilot). */
bool pips_table_agent_to_move(const pips_table *t);
/* Seats that resigned, as a bit mask. */
unsigned pips_table_resigned(const pips_table *t);

/* Plays a move of the seat to move (or a chance outcome) after checking it;
 * agents observe it, events fire, due chance is rolled. On failure nothing
 * changes. */
bool pips_table_play(pips_table *t, pips_move m, pips_error *err);
bool pips_table_play_text(pips_table *t, const char *text, pips_error *err);
/* Rolls one chance event from the match dice. */
bool pips_table_roll(pips_table *t, pips_error *err);

/* Asks the agent of `seat` for a move in `state` (normally a copy of the
 * current position: the call changes nothing in the table, so a server can
 * think without its lock). *seconds (may be NULL) gets the thinking time. */
bool pips_table_think(pips_table *t, int seat, const void *state, pips_move *out,
                      double *seconds, pips_error *err);
/* One step: rolls a due chance event, or lets the agent to move think and
 * play. False with *err when the seat to move is human or the game is over. */
bool pips_table_step(pips_table *t, pips_error *err);
/* Steps until the game is over, a human seat is to move, or max_plies moves
 * (0: no limit) are in the match. */
bool pips_table_run(pips_table *t, size_t max_plies, pips_error *err);

/* Takes back the last decision of a human seat and everything after it
 * (agent replies, chance), so in hotseat either human may take back the
 * last human move. False with *err when there is none. */
bool pips_table_take_back(pips_table *t, pips_error *err);
/* Takes back exactly the last move. */
bool pips_table_undo(pips_table *t, pips_error *err);
/* Seat resigns (see the header note). False when the game is over or the
 * seat already resigned. */
bool pips_table_resign(pips_table *t, int seat, pips_error *err);

/* Sets the resigned seats at once, without events (restoring a stored
 * table after its moves were replayed). While the others play on, every
 * resigned seat, a person's or an agent's, is played by its autopilot; a
 * seat no longer resigned gets its own player back. */
bool pips_table_set_resigned(pips_table *t, unsigned mask, pips_error *err);

/* The result at the end: every seat's return in [0, 1], resignations
 * counted (false when the game is not over). */
bool pips_table_returns(const pips_table *t, double *out);
/* A short result ("X wins", "seat 2 resigns; seat 1 wins"). */
void pips_table_result_text(const pips_table *t, pips_str *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
