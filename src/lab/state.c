/*
 * state.c — the saved state of a stopped playtest (`--resume`): what the
 * run is (game, variants' options, seat specs, seatings, seed, games,
 * threshold), which (variant, game) jobs were played, and each variant's
 * running sums, so a resumed run ends with exactly the sums, hence the
 * report, an uninterrupted run gives.
 *
 * The file is JSON; every number array is a hex string of 64-bit words
 * (doubles by their bits), so nothing is rounded on the way.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab_impl.h"

#define STATE_FORMAT 1

static json_t *hex_words(const uint64_t *w, size_t n)
{
    char *text = pips_malloc(NULL, n * 16 + 1);
    if (!text)
        return NULL;
    for (size_t i = 0; i < n; i++)
        snprintf(text + 16 * i, 17, "%016llx", (unsigned long long)w[i]);
    text[16 * n] = '\0';
    json_t *s = json_string(text);
    pips_free(NULL, text);
    return s;
}

static json_t *hex_doubles(const double *d, size_t n)
{
    uint64_t *w = pips_malloc(NULL, (n ? n : 1) * sizeof *w);
    if (!w)
        return NULL;
    if (n)
        memcpy(w, d, n * sizeof *w);
    json_t *s = hex_words(w, n);
    pips_free(NULL, w);
    return s;
}

json_t *lab_hex_doubles(const double *d, size_t n) { return hex_doubles(d, n); }

/* Decodes a hex string of words into a new array; *n receives the count. */
static uint64_t *words_of(json_t *s, size_t *n)
{
    const char *text = json_string_value(s);
    size_t len = text ? strlen(text) : 1;
    if (!text || len % 16)
        return NULL;
    *n = len / 16;
    uint64_t *w = pips_malloc(NULL, (*n ? *n : 1) * sizeof *w);
    for (size_t i = 0; w && i < *n; i++) {
        char word[17];
        memcpy(word, text + 16 * i, 16);
        word[16] = '\0';
        char *end;
        w[i] = strtoull(word, &end, 16);
        if (*end) {
            pips_free(NULL, w);
            return NULL;
        }
    }
    return w;
}

bool lab_doubles_of(json_t *s, double *out, size_t n)
{
    size_t got = 0;
    uint64_t *w = words_of(s, &got);
    bool ok = w && got == n;
    if (ok && n)
        memcpy(out, w, n * sizeof *out);
    pips_free(NULL, w);
    return ok;
}

/* The seat specs as given (pooled agents expanded). */
static json_t *specs_json(const pips_playtest *pt)
{
    json_t *a = json_array();
    for (size_t k = 0; k < pt->n_specs; k++)
        json_array_append_new(a, json_string(pt->agents[pt->spec_agent[k]]));
    return a;
}

json_t *lab_state_json(const pips_playtest *pt)
{
    unsigned long jobs = (unsigned long)pt->n_variants * pt->games;
    json_t *root = json_object(), *vars = json_array();
    bool ok = root && vars;
    for (size_t v = 0; ok && v < pt->n_variants; v++) {
        lab_acc *a = &pt->acc[v];
        size_t n = lab_acc_fields(a);
        uint64_t *buf = pips_malloc(NULL, n * sizeof *buf);
        if (!buf) {
            ok = false;
            break;
        }
        lab_acc_pack(a, buf, false);
        json_t *x = json_object();
        json_object_set_new(x, "options", json_string(pt->variants[v].st.options));
        json_object_set_new(x, "plies_cap", json_integer((json_int_t)a->plies_cap));
        json_object_set_new(x, "counts", hex_words(buf, n));
        json_object_set_new(x, "decisive", hex_doubles(a->decisive, a->n_decisive));
        json_object_set_new(x, "hashes", hex_words(a->hashes, a->n_hashes));
        json_object_set_new(x, "time_sum", hex_doubles(a->time_sum, LAB_MAX_N));
        json_object_set_new(x, "time_max", hex_doubles(a->time_max, LAB_MAX_N));
        json_array_append_new(vars, x);
        pips_free(NULL, buf);
    }
    size_t n_words = jobs / 64 + 1;
    uint64_t *bits = ok ? pips_calloc(NULL, n_words, sizeof *bits) : NULL;
    ok = ok && bits;
    for (unsigned long j = 0; ok && j < jobs; j++)
        if (pt->done[j / 8] >> (j % 8) & 1)
            bits[j / 64] |= 1ull << (j % 64);
    if (ok) {
        json_object_set_new(root, "pips_playtest_state", json_integer(STATE_FORMAT));
        json_object_set_new(root, "game", json_string(pt->game));
        json_object_set_new(root, "seats", specs_json(pt));
        json_object_set_new(root, "seatings", json_string(pips_seating_name(pt->seating)));
        json_object_set_new(root, "seed", json_integer((json_int_t)pt->seed));
        json_object_set_new(root, "games", json_integer((json_int_t)pt->games));
        json_object_set_new(root, "threshold", json_real(pt->threshold));
        json_object_set_new(root, "drama_every", json_integer((json_int_t)pt->drama_every));
        json_object_set_new(root, "done", hex_words(bits, n_words));
        json_object_set_new(root, "variants", vars);
        vars = NULL;
    }
    pips_free(NULL, bits);
    json_decref(vars);
    if (!ok) {
        json_decref(root);
        return NULL;
    }
    return root;
}

bool lab_json_save(json_t *root, const char *path, pips_error *err)
{
    char *text =
        root ? json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
             : NULL;
    if (!text)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory saving the run's state");
    /* the folder of a run stopped before its reports were written */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (!lab_make_dir(dir, err)) {
            free(text);
            return false;
        }
    }
    FILE *f = fopen(path, "w");
    bool written = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        written = false;
    free(text);
    if (!written)
        return pips_fail(err, PIPS_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return true;
}

bool lab_state_save(const pips_playtest *pt, const char *path, pips_error *err)
{
    json_t *root = lab_state_json(pt);
    bool ok = lab_json_save(root, path, err);
    json_decref(root);
    return ok;
}

bool pips_playtest_save_state(const pips_playtest *pt, const char *path, pips_error *err)
{
    if (!pt->acc || !pt->done)
        return pips_fail(err, PIPS_ERR_ARG, "this run has no state to save");
    return lab_state_save(pt, path, err);
}

/* The drama setting as the command line gives it. */
static void drama_text(json_int_t every, char *out, size_t cap)
{
    if (every == 0)
        snprintf(out, cap, "--drama off");
    else if (every == 1)
        snprintf(out, cap, "drama in every game");
    else
        snprintf(out, cap, "drama in games 0, %lld, %lld, ... (--drama-every %lld)",
                 (long long)every, 2 * (long long)every, (long long)every);
}

bool lab_is_state(json_t *root, const char *key, int format, const char *kind,
                  const char *path, pips_error *err)
{
    if (json_integer_value(json_object_get(root, key)) == format)
        return true;
    return pips_fail(err, PIPS_ERR_ARG, "%s is not a saved %s state", path, kind);
}

json_t *lab_state_open(const char *path, const char *key, int format, const char *kind,
                       pips_error *err)
{
    json_t *root = lab_json_load(path, err);
    if (root && !lab_is_state(root, key, format, kind, path, err)) {
        json_decref(root);
        return NULL;
    }
    return root;
}

bool lab_same_game(json_t *root, const char *game, pips_error *err)
{
    const char *theirs = json_string_value(json_object_get(root, "game"));
    if (theirs && !strcmp(theirs, game))
        return true;
    return pips_fail(err, PIPS_ERR_ARG, "the folder holds a run of %s, not %s",
                     theirs ? theirs : "?", game);
}

bool lab_same_options(const char *theirs, const char *mine, pips_error *err)
{
    if (theirs && !strcmp(theirs, mine))
        return true;
    return pips_fail(err, PIPS_ERR_ARG,
                     "the options differ: the folder's run has '%s', this one '%s'",
                     theirs ? theirs : "?", mine);
}

bool lab_same_specs(json_t *theirs, json_t *mine, const char *what, pips_error *err)
{
    if (json_equal(theirs, mine))
        return true;
    char *a = json_dumps(theirs, JSON_COMPACT), *b = json_dumps(mine, JSON_COMPACT);
    pips_fail(err, PIPS_ERR_ARG, "the %s differ: the folder's run has %s, this one %s", what,
              a ? a : "?", b ? b : "?");
    free(a);
    free(b);
    return false;
}

bool lab_same_seed(json_t *root, uint64_t seed, pips_error *err)
{
    json_int_t theirs = json_integer_value(json_object_get(root, "seed"));
    if ((uint64_t)theirs == seed)
        return true;
    return pips_fail(err, PIPS_ERR_ARG, "the seed differs: the folder's run has %llu, "
                                        "this one %llu",
                     (unsigned long long)theirs, (unsigned long long)seed);
}

bool lab_same_games(json_t *root, unsigned long games, const char *per, pips_error *err)
{
    json_int_t theirs = json_integer_value(json_object_get(root, "games"));
    if ((unsigned long)theirs == games)
        return true;
    return pips_fail(err, PIPS_ERR_ARG, "the game count differs: the folder's run has %lld%s, "
                                        "this one %lu",
                     (long long)theirs, per, games);
}

bool lab_same_number(const char *what, double theirs, double mine, pips_error *err)
{
    if (theirs == mine)
        return true;
    return pips_fail(err, PIPS_ERR_ARG, "the %s differs: the folder's run has %g, this one %g",
                     what, theirs, mine);
}

/* True when the saved run is this one; otherwise false with *err naming
 * the first difference. */
static bool same_run(const pips_playtest *pt, json_t *root, pips_error *err)
{
    if (!lab_same_game(root, pt->game, err))
        return false;
    json_t *vars = json_object_get(root, "variants");
    if (json_array_size(vars) != pt->n_variants)
        return pips_fail(err, PIPS_ERR_ARG, "the folder's run has %zu variants, this one %zu",
                         json_array_size(vars), pt->n_variants);
    for (size_t v = 0; v < pt->n_variants; v++) {
        const char *opts = json_string_value(json_object_get(json_array_get(vars, v), "options"));
        if (!lab_same_options(opts, pt->variants[v].st.options, err))
            return false;
    }
    json_t *mine = specs_json(pt);
    bool same = lab_same_specs(json_object_get(root, "seats"), mine, "seats", err);
    json_decref(mine);
    if (!same)
        return false;
    const char *seating = json_string_value(json_object_get(root, "seatings"));
    if (!seating || strcmp(seating, pips_seating_name(pt->seating)))
        return pips_fail(err, PIPS_ERR_ARG,
                         "the seatings differ: the folder's run has %s, this one %s",
                         seating ? seating : "?", pips_seating_name(pt->seating));
    if (!lab_same_seed(root, pt->seed, err) || !lab_same_games(root, pt->games, "", err) ||
        !lab_same_number("threshold", json_real_value(json_object_get(root, "threshold")),
                         pt->threshold, err))
        return false;
    /* a state written before drama could be sampled has no key: every game */
    json_t *every = json_object_get(root, "drama_every");
    json_int_t was = every ? json_integer_value(every) : 1;
    if ((unsigned long)was != pt->drama_every) {
        char theirs[96], ours[96];
        drama_text(was, theirs, sizeof theirs);
        drama_text((json_int_t)pt->drama_every, ours, sizeof ours);
        return pips_fail(err, PIPS_ERR_ARG,
                         "the drama games differ: the folder's run has %s, this one %s", theirs,
                         ours);
    }
    return true;
}

static bool load_variant(json_t *x, lab_acc *a, pips_error *err)
{
    size_t cap = (size_t)json_integer_value(json_object_get(x, "plies_cap")), n = 0;
    if (cap > (size_t)LAB_MAX_PLIES * 4 || !lab_acc_reserve(a, cap) || a->plies_cap != cap)
        return pips_fail(err, PIPS_ERR_ARG, "a malformed saved state (length table)");
    uint64_t *w = words_of(json_object_get(x, "counts"), &n);
    if (!w || n != lab_acc_fields(a)) {
        pips_free(NULL, w);
        return pips_fail(err, PIPS_ERR_ARG, "a malformed saved state (counts)");
    }
    lab_acc_pack(a, w, true);
    pips_free(NULL, w);
    size_t nd = 0, nh = 0, nt = 0, nm = 0;
    uint64_t *d = words_of(json_object_get(x, "decisive"), &nd);
    uint64_t *h = words_of(json_object_get(x, "hashes"), &nh);
    uint64_t *ts = words_of(json_object_get(x, "time_sum"), &nt);
    uint64_t *tm = words_of(json_object_get(x, "time_max"), &nm);
    bool ok = d && h && ts && tm && nt == LAB_MAX_N && nm == LAB_MAX_N;
    if (ok) {
        pips_free(NULL, a->decisive);
        a->decisive = (double *)d; /* doubles by their bits, the same size */
        a->n_decisive = a->decisive_cap = nd;
        pips_free(NULL, a->hashes);
        a->hashes = h;
        a->n_hashes = a->hashes_cap = nh;
        memcpy(a->time_sum, ts, sizeof a->time_sum);
        memcpy(a->time_max, tm, sizeof a->time_max);
        d = h = NULL;
    }
    pips_free(NULL, d);
    pips_free(NULL, h);
    pips_free(NULL, ts);
    pips_free(NULL, tm);
    return ok ? true : pips_fail(err, PIPS_ERR_ARG, "a malformed saved state (lists)");
}

json_t *lab_json_load(const char *path, pips_error *err)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        pips_fail(err, PIPS_ERR_ARG, "cannot resume from %s: %s", path, je.text);
    return root;
}

bool lab_state_load(const pips_playtest *pt, const char *path, lab_acc *acc, uint8_t *done,
                    pips_error *err)
{
    json_t *root = lab_json_load(path, err);
    bool ok = root && lab_state_apply(pt, root, path, acc, done, err);
    json_decref(root);
    return ok;
}

bool lab_state_apply(const pips_playtest *pt, json_t *root, const char *path, lab_acc *acc,
                     uint8_t *done, pips_error *err)
{
    bool ok = false;
    if (!lab_is_state(root, "pips_playtest_state", STATE_FORMAT, "playtest", path, err))
        goto out;
    if (!same_run(pt, root, err)) {
        pips_error_prefix(err, "cannot resume from %s: ", path);
        goto out;
    }
    unsigned long jobs = (unsigned long)pt->n_variants * pt->games;
    size_t n = 0;
    uint64_t *bits = words_of(json_object_get(root, "done"), &n);
    if (!bits || n != jobs / 64 + 1) {
        pips_free(NULL, bits);
        pips_fail(err, PIPS_ERR_ARG, "a malformed saved state in %s (done)", path);
        goto out;
    }
    for (unsigned long j = 0; j < jobs; j++)
        if (bits[j / 64] >> (j % 64) & 1)
            done[j / 8] |= (uint8_t)(1u << (j % 8));
    pips_free(NULL, bits);
    json_t *vars = json_object_get(root, "variants");
    for (size_t v = 0; v < pt->n_variants; v++)
        if (!load_variant(json_array_get(vars, v), &acc[v], err)) {
            pips_error_prefix(err, "%s: ", path);
            goto out;
        }
    ok = true;
out:
    return ok;
}
