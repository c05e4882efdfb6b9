/*
 * random_game.c — plays one game with uniformly random moves and prints it:
 * every move in the game's notation, the final position and the result.
 *
 *   random_game [GAME [SEED]]      e.g. random_game ziggurat 7
 *
 * Dice (Ziggurat) are rolled by the match from its seed, so a seed replays
 * the same game.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pips/match.h>

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "tictacdoh";
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    pips_error err;
    pips_match *m = pips_match_new(name, NULL, 0, seed, NULL, &err);
    if (!m) {
        fprintf(stderr, "random_game: %s\n", err.msg);
        return 1;
    }
    const pips_game *g = m->game;
    pips_move *moves = malloc(pips_max_moves(g) * sizeof *moves);
    pips_rng rng;
    pips_rng_seed(&rng, seed);
    while (moves && !pips_match_over(m)) {
        bool ok;
        if (pips_to_move(g, m->state) == PIPS_CHANCE) {
            ok = pips_match_roll(m, NULL, &err);
        } else { /* rng also picks candidates in games with continuous moves */
            size_t n = pips_node_moves(g, m->state, &rng, moves, NULL);
            ok = n > 0 && pips_match_play(m, moves[pips_rng_below(&rng, n)], &err);
        }
        if (!ok) {
            fprintf(stderr, "random_game: move %zu: %s\n", m->n_moves + 1, err.msg);
            return 1;
        }
        char text[PIPS_MOVE_TEXT_MAX];
        pips_match_move_text(m, m->n_moves - 1, text);
        printf("%zu. %s\n", m->n_moves, text);
    }
    pips_str out;
    pips_str_init(&out, NULL);
    pips_render_opts ro = {.unicode = false, .colour = false};
    g->def->render(g, m->state, &ro, &out);
    pips_str_cat(&out, "result: ");
    g->def->result_text(g, m->state, &out);
    printf("%s\n", pips_str_cstr(&out));
    pips_str_free(&out);
    free(moves);
    pips_match_free(m);
    return 0;
}
