/*
 * fuzz_record.c — the game-record reader. A record that loads must write
 * back to a record that loads to the same position.
 */
#include "fuzz_common.h"
#include "pips/match.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    pips_error err;
    pips_match *m = pips_match_from_record(text, NULL, &err);
    if (m) {
        char *again = pips_match_to_record(m, &err);
        FUZZ_ASSERT(again);
        pips_match *m2 = pips_match_from_record(again, NULL, &err);
        FUZZ_ASSERT(m2);
        FUZZ_ASSERT(m2->n_moves == m->n_moves);
        FUZZ_ASSERT(memcmp(m2->state, m->state, m->game->def->state_size) == 0);
        pips_match_free(m2);
        free(again);
        pips_match_free(m);
    }
    free(text);
    return 0;
}
