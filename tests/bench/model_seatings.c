/*
 * model_seatings.c — a lone seat's chance of winning Tic Tac Doh! from the
 * empty board under the opponent model of mcts exact=N (src/ai/model_solve.c),
 * for every seating of the lone seat L among searching seats H (modelled as
 * the hard level plays: each maximises its own return with every other seat
 * greedy) and greedy seats G (docs/ai.md, "Why Tic Tac Doh!'s mixed field
 * fails").
 *   bench_model_seatings SEATS [POSITIONS]
 * SEATS is 3 or 4; POSITIONS (default 4000000) bounds each of the two
 * solves' tables (about 50 bytes a position between them).
 * The lone seat knows which seat is which. For each distinct order of L,
 * one H and the rest G, then of L and only H, prints its chance of a win
 * when it plays for that chance with a searcher's tied moves each as
 * likely (win), and when it plays for the worst case, every such tie that
 * matters going against it (worst: mcts worst=1), then the mean of each
 * field's orders. "gave up" means the table was too small. No rng: the
 * figures are exact under the model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/model_solve.h"
#include "pips/agent.h"
#include "pips/game.h"

/* The lone seat's values in every order of the field (one_hard: one H,
 * the rest G, each order with L in every seat; else only H, L in every
 * seat), and their means. */
static void solve_field(const pips_game *g, model_solver *ms, model_solver *worst, int seats,
                        const char *name, bool one_hard)
{
    pips_error err;
    void *st = pips_state_new(g, &err);
    if (!st) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    double sum_win = 0, sum_worst = 0;
    int orders = 0;
    for (int lone = 0; lone < seats; lone++)
        for (int hard = 0; hard < seats; hard++) {
            if (hard == lone || (!one_hard && hard != (lone + 1) % seats))
                continue; /* with only H, one order per lone seat */
            char order[8] = "";
            bool searcher[PIPS_MAX_PLAYERS] = {false};
            for (int p = 0; p < seats; p++) {
                searcher[p] = p != lone && (!one_hard || p == hard);
                order[p] = p == lone ? 'L' : searcher[p] ? 'H' : 'G';
            }
            g->def->initial(g, st);
            model_value v, w;
            if (!model_solve_value(ms, st, lone, searcher, &v) ||
                !model_solve_value(worst, st, lone, searcher, &w)) {
                printf("%s gave up (%zu positions)\n", order, model_solver_positions(ms));
                fflush(stdout);
                continue;
            }
            printf("%s win %.3f worst %.3f\n", order, v.win, w.worst);
            fflush(stdout);
            sum_win += v.win;
            sum_worst += w.worst;
            orders++;
        }
    if (orders)
        printf("%s: mean over %d orders: win %.3f worst %.3f\n\n", name, orders,
               sum_win / orders, sum_worst / orders);
    pips_state_free(g, st);
}

int main(int argc, char **argv)
{
    int seats = argc > 1 ? atoi(argv[1]) : 0;
    long positions = argc > 2 ? atol(argv[2]) : 4000000;
    if ((seats != 3 && seats != 4) || positions < 1000) {
        fprintf(stderr, "usage: bench_model_seatings 3|4 [POSITIONS >= 1000]\n");
        return 2;
    }
    char opt[32];
    snprintf(opt, sizeof opt, "players=%d", seats);
    const char *kv[] = {opt};
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", kv, 1, NULL, &err);
    if (!g) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    model_solver *ms = model_solver_new(g, (size_t)positions, 0);
    model_solver *worst = model_solver_new(g, (size_t)positions, 1);
    if (!ms || !worst) {
        fprintf(stderr, "out of memory for %ld positions\n", positions);
        return 1;
    }
    solve_field(g, ms, worst, seats, "one searcher, the rest greedy", true);
    solve_field(g, ms, worst, seats, "only searchers", false);
    model_solver_free(ms);
    model_solver_free(worst);
    pips_game_free(g);
    return 0;
}
