/*
 * fuzz_options.c — the options parser: newline-separated key=value pairs
 * for the game picked by the first byte. Whatever is accepted must give a
 * game whose start position round-trips through its state text.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = NULL;
    const pips_game_def *d = fuzz_pick(data, size, &text);
    if (!d)
        return 0;
    const char *kv[PIPS_MAX_OPTIONS + 4];
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line && n < PIPS_MAX_OPTIONS + 4;
         line = strtok(NULL, "\n"))
        kv[n++] = line;
    pips_error err;
    pips_game *g = pips_game_new(d->name, kv, n, NULL, &err);
    if (g) {
        unsigned char *s = calloc(1, d->state_size), *t = calloc(1, d->state_size);
        d->initial(g, s);
        pips_str out;
        pips_str_init(&out, NULL);
        d->state_to_text(g, s, &out);
        FUZZ_ASSERT(d->state_from_text(g, pips_str_cstr(&out), t, &err));
        FUZZ_ASSERT(memcmp(s, t, d->state_size) == 0);
        pips_str_free(&out);
        free(s);
        free(t);
        pips_game_free(g);
    }
    free(text);
    return 0;
}
