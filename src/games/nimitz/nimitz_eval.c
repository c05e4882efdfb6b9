/*
 * nimitz_eval.c — Nimitz's evaluation hook for the agents (greedy's one-ply
 * values, MCTS and alphabeta leaves).
 *
 * Nimitz is impartial: who wins depends only on the parity of the placements
 * still to come (NIM-R5: the last placer wins, or under misère the player
 * left without a placement), so a static count of features says little.
 * The hook instead
 *   - solves two-player positions exactly when the mover has few placements
 *     left (a win/loss search without tables, capped in nodes), and
 *   - otherwise plays a fixed number of fast random playouts and gives each
 *     seat its share of the games it would win (smoothed towards an even
 *     share, so a heuristic value is never a certain 0 or 1).
 * The playouts' generator is derived from the position's hash, so the hook
 * is a pure function of the state, as agents expect (the same position
 * always gets the same value).
 * With three seats or more there is no exact value to search for (a seat
 * that cannot win picks who does), but who wins within two placements can
 * be settled; such a position goes to that seat, whoever steered play into
 * it, so no seat is credited for handing the game to another (issue 24).
 */
#include <string.h>

#include "games/nimitz/nimitz.h"

#define NIM_EVAL_PLAYOUTS 24
#define NIM_EXACT_MAX_MOVES 24 /* try the exact search at most at this many placements */
#define NIM_EXACT_NODES 600     /* node cap of one exact search */
#define NIM_EVAL_SALT 0x6e696d6576616cull

/* The seat that wins a finished game (NIM-R5). */
static int nim_eval_winner(const nim_config *cf, const nim_state *s)
{
    return cf->misere ? s->placed % cf->players
                      : (s->placed + cf->players - 1) % cf->players;
}

/* Two players: 1 when the player to move wins s, 0 when they lose, -1 when
 * the node budget ran out first. The moves are walked straight from the
 * cell options, so no move list is kept per level. (nim_place leaves the
 * `over` flag alone: a position without placements is found here.) */
static int mover_wins(const nim_config *cf, const nim_state *s, int *budget)
{
    unsigned avail = nim_avail(s);
    bool any = false;
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm, om;
        if (!nim_cell_options(cf, s, c, avail, &pm, &om))
            continue;
        for (unsigned ps = pm; ps; ps &= ps - 1)
            for (unsigned os = om; os; os &= os - 1) {
                any = true;
                if (--*budget < 0)
                    return -1;
                nim_state child = *s;
                nim_place(cf, &child,
                          nim_make_move(c, __builtin_ctz(os), __builtin_ctz(ps)));
                int r = mover_wins(cf, &child, budget);
                if (r < 0)
                    return -1;
                if (r == 0)
                    return 1;
            }
    }
    /* every placement loses, or there is none: the mover cannot place and
     * loses under normal play, wins under misère (NIM-R5) */
    return any ? 0 : cf->misere ? 1 : 0;
}

/* Does placement m in s leave no placement at all? */
static bool ends_game(const nim_config *cf, const nim_state *s, pips_move m)
{
    nim_state child = *s;
    nim_place(cf, &child, m);
    return !nim_any_move(cf, &child);
}

/* Does the player to move in s have a placement that leaves none? */
static bool can_end(const nim_config *cf, const nim_state *s)
{
    pips_move moves[NIM_EXACT_MAX_MOVES];
    if (nim_count(cf, s) > NIM_EXACT_MAX_MOVES)
        return false;
    size_t n = nim_generate(cf, s, moves);
    for (size_t i = 0; i < n; i++)
        if (ends_game(cf, s, moves[i]))
            return true;
    return false;
}

/* Three seats or more: the seat that wins within two placements whatever
 * is played, as far as that is settled, or -1. NIM-R5, normal play: a
 * mover with a placement that leaves none wins at once; a mover whose every
 * placement leaves the next seat such a placement hands it the game.
 * Misère: a mover whose every placement leaves none hands the next seat the
 * game (it cannot move, and wins). Looked at only with at most
 * NIM_EXACT_MAX_MOVES placements, or when the store holds one piece (then
 * every placement takes it and leaves none). */
static int settled_winner(const nim_config *cf, const nim_state *s)
{
    int np = cf->players, mover = s->placed % np, next = (mover + 1) % np;
    int left = 0;
    for (int p = 0; p < NIM_PIECES; p++)
        left += s->store[p];
    if (left == 1)
        return cf->misere ? next : mover;
    size_t n = nim_count(cf, s);
    if (n == 0 || n > NIM_EXACT_MAX_MOVES)
        return -1;
    pips_move moves[NIM_EXACT_MAX_MOVES];
    nim_generate(cf, s, moves);
    bool all_end = true, all_hand = true;
    for (size_t i = 0; i < n; i++) {
        nim_state child = *s;
        nim_place(cf, &child, moves[i]);
        bool over = !nim_any_move(cf, &child);
        if (over && !cf->misere)
            return mover;
        all_end &= over;
        if (!cf->misere && all_hand)
            all_hand = can_end(cf, &child);
    }
    if (cf->misere)
        return all_end ? next : -1;
    return all_hand ? next : -1;
}

void nim_evaluate(const pips_game *g, const void *state, double *out)
{
    const nim_config *cf = g->config;
    const nim_state *s = state;
    int np = cf->players, mover = s->placed % np;
    if (np >= 3) {
        int w = settled_winner(cf, s);
        if (w >= 0) { /* scored as the finished game: below any playout share */
            for (int p = 0; p < np; p++)
                out[p] = p == w ? 1.0 : 0.0;
            return;
        }
    }
    if (np == 2 && nim_count(cf, s) <= NIM_EXACT_MAX_MOVES) {
        int budget = NIM_EXACT_NODES;
        int r = mover_wins(cf, s, &budget);
        if (r >= 0) {
            out[mover] = r;
            out[1 - mover] = 1 - r;
            return;
        }
    }
    pips_rng rng;
    pips_rng_derive(&rng, NIM_EVAL_SALT, g->def->hash(g, state));
    double wins[PIPS_MAX_PLAYERS] = {0};
    for (int i = 0; i < NIM_EVAL_PLAYOUTS; i++) {
        nim_state t = *s;
        for (pips_move m; !t.over && (m = nim_random(cf, &t, &rng)) != PIPS_MOVE_NONE;)
            nim_place(cf, &t, m);
        wins[nim_eval_winner(cf, &t)] += 1;
    }
    for (int p = 0; p < np; p++)
        out[p] = (wins[p] + 1.0 / np) / (NIM_EVAL_PLAYOUTS + 1);
}
