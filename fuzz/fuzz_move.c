/*
 * fuzz_move.c — every game's move text parser. The input picks a game and a
 * position (a few seeded random moves from the start), then a move text. A
 * text that parses must format and re-parse to the same move; if it is legal,
 * applying it must give a state whose text round-trips.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    char *text = NULL;
    const pips_game_def *d = fuzz_pick(data + 1, size - 1, &text);
    pips_game *g = pips_game_new(d->name, NULL, 0, NULL, NULL);
    unsigned char *s = calloc(1, d->state_size), *t = calloc(1, d->state_size);
    size_t cap = pips_max_moves(g);
    pips_move *buf = calloc(cap, sizeof *buf);
    pips_rng rng;
    pips_rng_seed(&rng, data[0]);
    d->initial(g, s);
    pips_random_playout(g, s, &rng, buf, data[0] % 16);
    pips_error err;
    pips_move m;
    if (d->move_from_text(g, s, text, &m, &err)) {
        char again[PIPS_MOVE_TEXT_MAX];
        if (pips_check_move(g, s, m, &err)) {
            pips_move back;
            d->move_to_text(g, s, m, again);
            FUZZ_ASSERT(d->move_from_text(g, s, again, &back, &err));
            FUZZ_ASSERT(back == m);
            memcpy(t, s, d->state_size);
            d->apply(g, t, m);
            pips_str out;
            pips_str_init(&out, NULL);
            d->state_to_text(g, t, &out);
            FUZZ_ASSERT(d->state_from_text(g, pips_str_cstr(&out), s, &err));
            FUZZ_ASSERT(memcmp(s, t, d->state_size) == 0);
            pips_str_free(&out);
        }
    }
    free(buf);
    free(s);
    free(t);
    free(text);
    pips_game_free(g);
    return 0;
}
