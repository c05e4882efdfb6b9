/*
 * fuzz_state.c — every game's state text parser. A text that parses must
 * format, re-parse to a byte-equal state with the same hash, render, and
 * accept every legal move (applied on a copy).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = NULL;
    const pips_game_def *d = fuzz_pick(data, size, &text);
    if (!d)
        return 0;
    pips_game *g = pips_game_new(d->name, NULL, 0, NULL, NULL);
    unsigned char *s = calloc(1, d->state_size), *t = calloc(1, d->state_size);
    pips_error err;
    if (d->state_from_text(g, text, s, &err)) {
        pips_str out;
        pips_str_init(&out, NULL);
        d->state_to_text(g, s, &out);
        FUZZ_ASSERT(d->state_from_text(g, pips_str_cstr(&out), t, &err));
        FUZZ_ASSERT(memcmp(s, t, d->state_size) == 0);
        FUZZ_ASSERT(d->hash(g, s) == d->hash(g, t));
        pips_render_opts ro = {true, true};
        pips_str_clear(&out);
        d->render(g, s, &ro, &out);
        pips_str_free(&out);
        size_t cap = pips_max_moves(g);
        pips_move *moves = calloc(cap, sizeof *moves);
        double *prob = calloc(cap, sizeof *prob);
        pips_rng rng;
        pips_rng_seed(&rng, 1);
        size_t n = pips_node_moves(g, s, &rng, moves, prob);
        FUZZ_ASSERT(n <= cap);
        for (size_t i = 0; i < n; i++) {
            memcpy(t, s, d->state_size);
            FUZZ_ASSERT(pips_check_move(g, t, moves[i], &err));
            d->apply(g, t, moves[i]);
        }
        free(moves);
        free(prob);
    }
    free(s);
    free(t);
    free(text);
    pips_game_free(g);
    return 0;
}
