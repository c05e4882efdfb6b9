/*
 * model_solve.h — the exact search under an opponent model behind mcts's
 * exact=N (model_solve.c explains the model). Private to src/ai.
 */
#ifndef PIPS_MODEL_SOLVE_H
#define PIPS_MODEL_SOLVE_H

#include "pips/game.h"

typedef struct model_solver model_solver;

/* The root seat's prospects after a move, under the model. */
typedef struct model_value {
    double win;   /* its chance of a win, a searcher's tied moves each as likely */
    double ret;   /* its expected return, the same way */
    double worst; /* its chance of a win when every searcher's tie goes against it */
} model_value;

/* A solver that stores at most max_positions positions and whose root seat
 * plays for (1 - worst) * win + worst * worst (then ret); NULL when out of
 * memory. */
model_solver *model_solver_new(const pips_game *g, size_t max_positions, double worst);
void model_solver_free(model_solver *ms);

/* Values of the n moves at state for the seat to move, with the seats
 * marked in searcher[] (one per seat) modelled as searchers and the other
 * seats as greedy. false when the solve gave up (position budget, deadline
 * if above 0, or depth): then out is not all filled. */
bool model_solve_moves(model_solver *ms, const void *state, const bool *searcher,
                       const pips_move *moves, size_t n, double deadline, model_value *out);
/* The root seat's values at state under the model, whoever is to move
 * there (a game's value to a seat before its first move). false when the
 * solve gave up. */
bool model_solve_value(model_solver *ms, const void *state, int root_seat, const bool *searcher,
                       model_value *out);
/* The searcher model's own values: out[i] is the expected return of the
 * seat to move at state after moves[i] when it maximises that and every
 * other seat is greedy. false when the solve gave up. */
bool model_own_values(model_solver *ms, const void *state, const pips_move *moves, size_t n,
                      double *out);
/* Marks in best[] the moves best for the root seat (within 1e-6); returns
 * how many. */
size_t model_solve_best(const model_solver *ms, const model_value *v, size_t n, bool *best);
/* Where a searcher's tied moves differ for the root seat, the solver asks
 * pick picks times for the move it plays at state (who to move) and takes
 * the mean over the answers (each answer a sample of how the searcher
 * breaks its tie); a move it does not know (PIPS_MOVE_NONE) leaves that
 * sample to the model. A searcher in the first round of replies to the
 * root's move (before the root seat moves again) is asked so whether or
 * not its moves tie: there its search, not the model, sets its move (a
 * search of a few thousand passes is far from exact early in a game). */
typedef pips_move (*model_pick_fn)(void *ctx, const void *state, int who);
/* false when out of memory (then pick is not set). The answers are kept
 * per position and seat, so solves of one move under other models reuse
 * them, until model_solver_begin_move. max_ply > 0: a tie is asked only
 * within max_ply plies below the root's move (ply 1 is the position after
 * it; the first round is asked however deep); deeper, the model's mean
 * over the tied moves stands. */
bool model_solver_set_pick(model_solver *ms, model_pick_fn pick, void *ctx, int picks,
                           int max_ply);
/* model_observe asks pick (when set) picks times more for the move of the
 * seat observed: its likelihood as a searcher is then the share of those
 * answers that are the move played, the model's likelihood (below) counting
 * as one more answer. 0 (the default): the model's likelihood alone. */
void model_solver_set_observe_picks(model_solver *ms, int picks);
/* Before each move's solves: empties the table if it is half full and
 * forgets pick's answers; from the first call on, the solves between two
 * calls share the table (no solve empties it), so together they store at
 * most max_positions, and values no model changes (a searcher's own) are
 * solved once. Without it each solve empties a half-full table. */
void model_solver_begin_move(model_solver *ms);
/* Seat who, to move at state, played m: the evidence on how it plays is
 * its moves' likelihood as a greedy seat (each of greedy's best moves as
 * likely, any other move rules greedy out) and as a searcher (the model's
 * best moves for it share 0.9, the others 0.1: a search is not exact; with
 * model_solver_set_observe_picks, weighed with its own search's answers). */
void model_observe(model_solver *ms, const void *state, pips_move m);
/* Whether the evidence makes seat a searcher: its moves more likely so than
 * as greedy (so always once greedy is ruled out), or (unknown_searches) as
 * likely, as for a seat not seen yet. */
bool model_is_searcher(const model_solver *ms, int seat, bool unknown_searches);
/* The chance that seat searches, given the evidence and the prior chance
 * prior (0..1) before any move: prior odds times the likelihood ratio of
 * its moves; 1 once greedy is ruled out, 0 with prior 0 until then. */
double model_searcher_chance(const model_solver *ms, int seat, double prior);
/* Positions stored now. */
size_t model_solver_positions(const model_solver *ms);

#endif
