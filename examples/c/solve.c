/*
 * solve.c — solves a position exactly and prints the value of every legal
 * move for the player to move: win, loss or draw.
 *
 *   solve [STATE]    a 3x3 Nimitz board with three colours; STATE in its
 *                    state text (default "b2:U:rL", one piece played)
 */
#include <stdio.h>
#include <stdlib.h>

#include <pips/game.h>

int main(int argc, char **argv)
{
    const char *options[] = {"board=3x3", "colors=3"};
    const char *text = argc > 1 ? argv[1] : "b2:U:rL";
    pips_error err;
    pips_game *g = pips_game_new("nimitz", options, 2, NULL, &err);
    void *state = g ? pips_state_new(g, &err) : NULL;
    if (!state || !g->def->state_from_text(g, text, state, &err)) {
        fprintf(stderr, "solve: %s\n", err.msg);
        return 1;
    }
    size_t max = pips_max_moves(g);
    pips_solve_opts so = {.threads = 1, .table_mb = 64};
    so.moves = malloc(max * sizeof *so.moves);
    so.move_values = malloc(max * sizeof *so.move_values);
    pips_solve_result res;
    if (!so.moves || !so.move_values || !pips_solve_moves(g, state, &so, &res, &err)) {
        fprintf(stderr, "solve: %s\n", so.moves && so.move_values ? err.msg : "out of memory");
        return 1;
    }
    for (size_t i = 0; i < res.n_moves; i++) {
        char move[PIPS_MOVE_TEXT_MAX];
        g->def->move_to_text(g, state, so.moves[i], move);
        printf("%-10s %s\n", move, pips_value_name(so.move_values[i]));
    }
    printf("the position: %s for the player to move (%llu positions solved)\n",
           pips_value_name(res.value), (unsigned long long)res.positions);
    free(so.moves);
    free(so.move_values);
    pips_state_free(g, state);
    pips_game_free(g);
    return 0;
}
