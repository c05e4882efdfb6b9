/*
 * playtest.c — runs a playtest: one or more variants (rule sets: the grid
 * of the --vary values, or a base and a --vs-opt rule set), every variant
 * playing the same game numbers. Worker threads take (variant, game) jobs in
 * turn, play each game with fresh agents and add its result to the
 * variant's running sums (acc.c) at once, so memory does not grow with the
 * number of games (records aside, when asked for).
 *
 * Each game runs on a pips_table (the library's match driver): game i's
 * match seed is pips_table_game_seed(seed, i), and the table seeds the
 * agents and has them observe every move, so game 0 of a playtest is the
 * game `pips play` and `pips serve` play with the same seed and seats.
 * Every variant replays the same game numbers with the same seeds. With
 * MPI (dist.c) rank r plays the jobs r, r + size, ... of the variant-major
 * job list and the ranks' sums are added up at the end.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lab/lab_impl.h"
#include "pips/match.h"
#include "pips/table.h"

/* What play_one needs of one variant: the run's options, the variant's game
 * and a view of the playtest with the variant's seat count. */
typedef struct run_ctx {
    const pips_playtest_opts *o;
    const lab_run_hooks *h; /* may be NULL */
    const pips_game *g;
    const pips_playtest *pt;
} run_ctx;

static bool is_mcts_spec(const char *spec) { return !strncmp(spec, "mcts", 4); }

/* The evaluations after every turn (drama.c): rows of np values, and the
 * seat whose turn each row closes. A worker keeps them from game to game,
 * so they stop growing after its first long game instead of reallocating
 * turn by turn between the match's own growing history. */
typedef struct turn_rows {
    double *eval; /* cap rows of up to LAB_MAX_N values */
    int *seat;
    size_t cap;
} turn_rows;

/* What one game's listener gathers while the table plays it. */
typedef struct game_log {
    const pips_game *g;
    game_result *r;
    pips_rng branch_rng; /* candidates counted for branching (non-enumerable games) */
    pips_move *buf;
    size_t br_cap;
    /* the winner's value estimates: (ply, estimate) of MCTS seats */
    double *est;
    int *est_seat;
    size_t est_n, est_cap;
    /* turns: the game's hook, or the seat to move */
    int np, per_round;
    bool drama;          /* evaluate after every turn (the game has the hook; not --drama off) */
    uint32_t turns;      /* turns begun */
    int turn_seat;       /* the seat of the last decision of the turn under way (-1 none) */
    int value_seat;      /* a two-player MCTS seat's root value for the turn (-1 none) */
    double value;
    turn_rows *rows; /* the worker's; eval_n of them used */
    size_t eval_n;
    bool failed; /* out of memory while logging */
} game_log;

/* Records the evaluation of state after the turn just ended (the given
 * row instead when not NULL: the returns at the end). */
static void log_turn_end(game_log *lg, const void *state, const double *given)
{
    turn_rows *tr = lg->rows;
    if (lg->eval_n == tr->cap) {
        size_t cap = tr->cap ? tr->cap * 2 : 1024;
        double *ne = pips_realloc(NULL, tr->eval, cap * LAB_MAX_N * sizeof *ne);
        if (ne)
            tr->eval = ne;
        int *ns = pips_realloc(NULL, tr->seat, cap * sizeof *ns);
        if (ns)
            tr->seat = ns;
        if (!ne || !ns) {
            lg->failed = true;
            return;
        }
        tr->cap = cap;
    }
    double *row = tr->eval + lg->eval_n * (size_t)lg->np;
    if (given) {
        memcpy(row, given, (size_t)lg->np * sizeof *row);
    } else if (lg->np == 2 && lg->value_seat >= 0 && lg->value_seat == lg->turn_seat) {
        /* a two-player MCTS seat's own root value stands for the position */
        row[lg->value_seat] = lg->value;
        row[1 - lg->value_seat] = 1 - lg->value;
    } else {
        lg->g->def->evaluate(lg->g, state, row);
    }
    tr->seat[lg->eval_n++] = lg->turn_seat;
    lg->value_seat = -1;
}

/* After an event: with the game's turns hook, every turn begun since is
 * the end of the one before, in the position now. */
static void log_turns_hook(game_log *lg, const pips_table *t)
{
    const pips_match *m = pips_table_match(t);
    uint32_t now = lg->g->def->turns(lg->g, m->state, &lg->per_round);
    for (; lg->turns < now; lg->turns++) {
        if (lg->turns > 0 && lg->drama && !pips_match_over(m))
            log_turn_end(lg, m->state, NULL);
        if (lg->turns > 0)
            lg->turn_seat = -1;
    }
}

static bool log_grow(game_log *lg)
{
    const pips_allocator *al = lg->g->alloc;
    game_result *r = lg->r;
    if (r->length == lg->br_cap) {
        uint32_t *nb = pips_realloc(al, r->branching, lg->br_cap * 2 * sizeof *nb);
        if (!nb)
            return false;
        r->branching = nb;
        lg->br_cap *= 2;
    }
    if (lg->est_n == lg->est_cap) {
        double *ne = pips_realloc(al, lg->est, lg->est_cap * 4 * sizeof *ne);
        if (!ne)
            return false;
        lg->est = ne;
        int *ns = pips_realloc(al, lg->est_seat, lg->est_cap * 2 * sizeof *ns);
        if (!ns)
            return false;
        lg->est_seat = ns;
        lg->est_cap *= 2;
    }
    return true;
}

static void log_event(void *ud, const pips_table *t, const pips_table_event *ev)
{
    game_log *lg = ud;
    game_result *r = lg->r;
    if (ev->kind == PIPS_TABLE_MOVE || ev->kind == PIPS_TABLE_CHANCE)
        r->hash = pips_mix64(r->hash ^ ev->move) + ev->ply;
    if (ev->kind == PIPS_TABLE_CHANCE) {
        r->chance_plies++;
        if (lg->g->def->turns)
            log_turns_hook(lg, t);
        return;
    }
    if (ev->kind != PIPS_TABLE_MOVE || lg->failed)
        return;
    if (!lg->g->def->turns) {
        /* a turn starts at a decision whose mover differs from the last one's */
        if (lg->turns > 0 && ev->seat != lg->turn_seat && lg->drama)
            log_turn_end(lg, ev->before, NULL);
        lg->turns += lg->turns == 0 || ev->seat != lg->turn_seat;
    }
    if (!log_grow(lg)) {
        lg->failed = true;
        return;
    }
    int who = ev->seat;
    /* the bulk count where the game has one: the same number, without
     * writing the moves out (it pays for the evaluations after each turn) */
    const pips_game_def *d = lg->g->def;
    r->branching[r->length] =
        d->count_moves && d->legal_moves && !(d->flags & PIPS_GAME_NOT_ENUMERABLE)
            ? (uint32_t)d->count_moves(lg->g, ev->before)
            : (uint32_t)pips_node_moves(lg->g, ev->before, &lg->branch_rng, lg->buf, NULL);
    r->time_sum[who] += ev->seconds;
    if (ev->seconds > r->time_max[who])
        r->time_max[who] = ev->seconds;
    r->moves[who]++;
    pips_agent *a = pips_table_agent(t, who);
    double v;
    if (a && is_mcts_spec(pips_agent_spec(a)) && pips_agent_last_value(a, &v)) {
        lg->est[2 * lg->est_n] = r->length;
        lg->est[2 * lg->est_n + 1] = v;
        lg->est_seat[lg->est_n++] = who;
        lg->value_seat = who;
        lg->value = v;
    }
    lg->turn_seat = who;
    r->length++;
    if (lg->g->def->turns)
        log_turns_hook(lg, t);
}

/* The game a worker plays its games of variant c on: configured once
 * (built-in games only read their config) and kept in *kept until the
 * worker ends. A rule script's game keeps per-game Lua state and a failure
 * flag, so each of its games is configured afresh and owned by its match. */
static pips_match *game_match(const run_ctx *c, pips_game **kept, uint64_t seed, pips_error *err)
{
    const pips_game *g = c->g;
    if (g->def->script || g->def->failure) {
        pips_game *own = pips_game_new_opts(g->def, &g->options, g->alloc, err);
        return own ? pips_match_from_game(own, seed, err) : NULL;
    }
    if (!*kept && !(*kept = pips_game_new_opts(g->def, &g->options, g->alloc, err)))
        return NULL;
    return pips_match_on_game(*kept, seed, err);
}

/* Game `index` of the playtest: match seed pips_table_game_seed(seed,
 * index), seats rotated by index unless fixed, agents seeded by the table
 * (pips/table.h), so game 0 is exactly `pips play` with the same seed. */
static bool play_one(run_ctx *c, pips_game **kept, unsigned long index, turn_rows *rows,
                     game_result *r, pips_error *err)
{
    const pips_game *g = c->g;
    const pips_game_def *d = g->def;
    const pips_playtest *pt = c->pt;
    int np = pt->np;
    bool ok = false;
    game_log lg = {.g = g, .r = r, .br_cap = 64, .est_cap = 64, .np = np, .per_round = np,
                   .turn_seat = -1, .value_seat = -1, .rows = rows,
                   .drama = d->evaluate && pt->drama_every && index % pt->drama_every == 0};
    pips_rng_derive(&lg.branch_rng, c->o->seed ^ 0x9e3779b97f4a7c15ull, index);
    lg.buf = pips_calloc(g->alloc, pips_max_moves(g), sizeof *lg.buf);
    lg.est = pips_malloc(g->alloc, lg.est_cap * 2 * sizeof *lg.est);
    lg.est_seat = pips_malloc(g->alloc, lg.est_cap * sizeof *lg.est_seat);
    r->branching = pips_malloc(g->alloc, lg.br_cap * sizeof *r->branching);
    pips_table *table = NULL;
    pips_match *match = game_match(c, kept, pips_table_game_seed(c->o->seed, index), err);
    if (!match)
        goto done;
    if (!lg.buf || !lg.est || !lg.est_seat || !r->branching) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    const char *seat_names[LAB_MAX_N];
    pips_seating_order(pt->seating, pt->spec_agent, np, index, r->seat_agent);
    for (int s = 0; s < np; s++)
        seat_names[s] = pt->agents[r->seat_agent[s]];
    table = pips_table_new(match, seat_names, np, NULL, err);
    if (!table)
        goto done;
    match = NULL; /* the table owns it */
    pips_table_listen(table, log_event, &lg);
    r->winner = -1;
    r->decisive = -1;
    if (!pips_table_run(table, LAB_MAX_PLIES, err))
        goto done;
    if (lg.failed) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    const pips_match *played = pips_table_match(table);
    if (c->h && c->h->on_game)
        c->h->on_game(c->h->ud, index, played);
    if (!pips_table_over(table)) {
        r->unfinished = true;
        for (int s = 0; s < np; s++)
            r->returns[s] = 1.0 / np;
    } else {
        pips_table_returns(table, r->returns);
        r->capped = d->capped && d->capped(g, played->state);
    }
    if (c->o->keep_records) {
        char *text = pips_match_to_record(played, err);
        if (!text)
            goto done;
        r->record = pips_strdup(NULL, text);
        pips_free(played->game->alloc, text);
        if (!r->record) {
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory for a record");
            goto done;
        }
    }
    int best = 0, ties = 0;
    for (int s = 1; s < np; s++)
        if (r->returns[s] > r->returns[best])
            best = s;
    for (int s = 0; s < np; s++)
        ties += r->returns[s] == r->returns[best];
    r->winner = ties == 1 ? best : -1;
    /* turns and rounds; the last turn ends in the final position (its returns) */
    if (d->turns)
        lg.turns = d->turns(g, played->state, &lg.per_round);
    r->turns = lg.turns;
    r->rounds = lg.per_round > 0 ? (lg.turns + (uint32_t)lg.per_round - 1) / (uint32_t)lg.per_round
                                 : lg.turns;
    if (lg.drama && lg.turns > 0) {
        if (lg.eval_n > lg.turns - 1)
            lg.eval_n = lg.turns - 1;
        log_turn_end(&lg, played->state, r->returns);
        if (lg.failed) {
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
            goto done;
        }
        lab_drama_of(rows->eval, rows->seat, lg.eval_n, np, r->winner, &r->drama);
    } else {
        r->drama = (lab_drama){-1, -1, -1, -1}; /* not measured */
    }
    /* decisiveness: the first ply from which every estimate of the winner's
     * value (its own, or 1 - the opponent's in a two-player game) stays at or
     * above the threshold */
    if (r->winner >= 0 && r->length > 0) {
        double from = -1;
        for (size_t i = 0; i < lg.est_n; i++) {
            double v = lg.est[2 * i + 1];
            if (lg.est_seat[i] != r->winner) {
                if (np != 2)
                    continue;
                v = 1 - v;
            }
            if (v >= pt->threshold) {
                if (from < 0)
                    from = lg.est[2 * i];
            } else {
                from = -1;
            }
        }
        if (from >= 0)
            r->decisive = from / r->length;
    }
    ok = true;
done:
    pips_table_free(table);
    pips_match_free(match);
    pips_free(g->alloc, lg.buf);
    pips_free(g->alloc, lg.est);
    pips_free(g->alloc, lg.est_seat);
    return ok;
}

/* The jobs of a run, shared by the worker threads. */
typedef struct pool {
    const pips_playtest_opts *o;
    const lab_run_hooks *h; /* may be NULL */
    pips_playtest *pt;
    run_ctx *ctx;      /* per variant */
    lab_acc *acc;      /* per variant */
    unsigned long jobs; /* variants x games */
    unsigned long total; /* jobs this process plays, for progress */
    unsigned long done;
    pthread_mutex_t lock;
    unsigned long next;
    unsigned long first, stride; /* this process plays jobs first, first + stride, ... */
    bool failed;
    uint8_t *done_bits; /* jobs already played (a resumed run's) are skipped */
    pips_error err;
} pool;

static bool job_done(const uint8_t *bits, unsigned long j) { return bits[j / 8] >> (j % 8) & 1; }

static void *worker(void *arg)
{
    pool *p = arg;
    const pips_playtest *pt = p->pt;
    turn_rows rows = {0};
    pips_game *kept[LAB_MAX_VARIANTS] = {NULL}; /* per variant, game_match() */
    for (;;) {
        pthread_mutex_lock(&p->lock);
        unsigned long j = p->first + p->stride * p->next++;
        while (j < p->jobs && job_done(p->done_bits, j))
            j = p->first + p->stride * p->next++;
        bool stop = p->failed || j >= p->jobs || (p->o->stop && *p->o->stop);
        pthread_mutex_unlock(&p->lock);
        if (stop)
            break;
        size_t v = j / pt->games;
        unsigned long i = j % pt->games;
        lab_variant *var = &pt->variants[v];
        game_result r;
        memset(&r, 0, sizeof r);
        pips_error err;
        bool ok = play_one(&p->ctx[v], &kept[v], i, &rows, &r, &err);
        pthread_mutex_lock(&p->lock);
        if (ok && !lab_acc_add(&p->acc[v], &r))
            ok = pips_fail(&err, PIPS_ERR_NOMEM, "out of memory");
        if (ok && var->records) {
            var->records[i] = r.record;
            r.record = NULL;
        }
        if (ok)
            p->done_bits[j / 8] |= (uint8_t)(1u << (j % 8));
        if (ok && p->h && p->h->on_result)
            p->h->on_result(p->h->ud, i, r.returns);
        if (!ok && !p->failed) {
            p->failed = true;
            p->err = err;
            unsigned long long game_seed =
                (unsigned long long)pips_table_game_seed(p->o->seed, i);
            if (pt->n_variants > 1)
                pips_error_prefix(&p->err, "variant %s (%s), game %lu (seed %llu): ",
                                  var->name, var->st.options, i + 1, game_seed);
            else
                pips_error_prefix(&p->err, "game %lu (seed %llu): ", i + 1, game_seed);
        }
        unsigned long done = ++p->done;
        if (p->o->progress && ok)
            p->o->progress(p->o->progress_ud, done, p->total);
        pthread_mutex_unlock(&p->lock);
        pips_free(NULL, r.branching);
        pips_free(NULL, r.record);
    }
    pips_free(NULL, rows.eval);
    pips_free(NULL, rows.seat);
    for (size_t v = 0; v < LAB_MAX_VARIANTS; v++)
        pips_game_free(kept[v]);
    return NULL;
}

static void options_text(const pips_game *g, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->options.n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", i ? " " : "",
                                g->options.kv[i].key, g->options.kv[i].value);
    if (!g->options.n)
        snprintf(out, cap, "(defaults)");
}

/* The configured game: by name, or from o->def when given. */
static pips_game *make_game(const pips_playtest_opts *o, const char *const *kv, size_t n,
                            pips_error *err)
{
    if (!o->def)
        return pips_game_new(o->game ? o->game : "", kv, n, NULL, err);
    pips_options opts;
    memset(&opts, 0, sizeof opts);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        if (!eq || eq == kv[i] || (size_t)(eq - kv[i]) >= PIPS_OPT_KEY_MAX ||
            strlen(eq + 1) >= PIPS_OPT_VALUE_MAX || opts.n == PIPS_MAX_OPTIONS) {
            pips_fail(err, PIPS_ERR_ARG, "option '%.80s': expected KEY=VALUE", kv[i]);
            return NULL;
        }
        memcpy(opts.kv[opts.n].key, kv[i], (size_t)(eq - kv[i]));
        snprintf(opts.kv[opts.n].value, PIPS_OPT_VALUE_MAX, "%s", eq + 1);
        opts.n++;
    }
    return pips_game_new_opts(o->def, &opts, NULL, err);
}

/* A --vary argument: "KEY=V1,V2,..." (';' separates the values instead
 * when the text holds one, for values that contain commas). */
typedef struct vary_spec {
    char key[PIPS_OPT_KEY_MAX];
    size_t n;
    char values[LAB_MAX_VARIANTS][PIPS_OPT_VALUE_MAX];
} vary_spec;

static bool parse_vary(const char *text, vary_spec *out, pips_error *err)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || (size_t)(eq - text) >= PIPS_OPT_KEY_MAX || !eq[1])
        return pips_fail(err, PIPS_ERR_ARG, "--vary '%.80s': expected KEY=V1,V2,...", text);
    memcpy(out->key, text, (size_t)(eq - text));
    out->key[eq - text] = '\0';
    char sep = strchr(eq + 1, ';') ? ';' : ',';
    out->n = 0;
    for (const char *p = eq + 1;;) {
        size_t len = strcspn(p, sep == ';' ? ";" : ",");
        if (len == 0 || len >= PIPS_OPT_VALUE_MAX)
            return pips_fail(err, PIPS_ERR_ARG, "--vary '%.80s': %s value %zu", text,
                             len ? "too long a" : "empty", out->n + 1);
        if (out->n == LAB_MAX_VARIANTS)
            return pips_fail(err, PIPS_ERR_ARG, "--vary '%.80s': more than %d values", text,
                             LAB_MAX_VARIANTS);
        memcpy(out->values[out->n], p, len);
        out->values[out->n][len] = '\0';
        for (size_t k = 0; k < out->n; k++)
            if (!strcmp(out->values[k], out->values[out->n]))
                return pips_fail(err, PIPS_ERR_ARG, "--vary '%.80s': value '%s' twice", text,
                                 out->values[k]);
        out->n++;
        if (!p[len])
            break;
        p += len + 1;
    }
    return true;
}

/* Letters naming variant v: A..Z, AA, AB, ... (record file prefixes). */
static void variant_name(size_t v, char *out, size_t cap)
{
    char tmp[16];
    size_t n = 0;
    for (size_t x = v + 1; x > 0 && n < sizeof tmp; x = (x - 1) / 26)
        tmp[n++] = (char)('A' + (x - 1) % 26);
    size_t k = 0;
    while (n > 0 && k + 1 < cap)
        out[k++] = tmp[--n];
    out[k] = '\0';
}

static bool has_key(const char *kv, const char *key)
{
    size_t len = strlen(key);
    return !strncmp(kv, key, len) && kv[len] == '=';
}

/* The option list of a variant: the base options, each overridden key
 * replaced by its override. */
static size_t variant_kv(const pips_playtest_opts *o, const char *const *over, size_t n_over,
                         const char **kv, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < o->n_opts && n < cap; i++) {
        bool overridden = false;
        for (size_t j = 0; j < n_over; j++) {
            const char *eq = strchr(over[j], '=');
            char key[PIPS_OPT_KEY_MAX];
            snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - over[j]) : 0, over[j]);
            overridden |= has_key(o->opts[i], key);
        }
        if (!overridden)
            kv[n++] = o->opts[i];
    }
    for (size_t j = 0; j < n_over && n < cap; j++)
        kv[n++] = over[j];
    return n;
}

static void run_info(const pips_playtest_opts *o, pips_playtest *pt)
{
    snprintf(pt->command, sizeof pt->command, "%s", o->command_line ? o->command_line : "");
    snprintf(pt->version, sizeof pt->version, "%s", o->version ? o->version : "unknown");
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(pt->date, sizeof pt->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    struct utsname u;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (uname(&u) == 0)
        snprintf(pt->machine, sizeof pt->machine, "%.60s %.60s %.60s %.60s, %ld CPUs", u.sysname,
                 u.nodename, u.release, u.machine, cpus);
    else
        snprintf(pt->machine, sizeof pt->machine, "unknown, %ld CPUs", cpus);
}

/* Builds the variants (games, names, varied values, seat counts) and checks
 * every agent spec against every variant. games[v] receives the games. */
static bool build_variants(const pips_playtest_opts *o, pips_playtest *pt, pips_game **games,
                           pips_error *err)
{
    vary_spec *vs = pips_calloc(NULL, LAB_MAX_VARY, sizeof *vs);
    char specs[LAB_MAX_N][PIPS_SPEC_MAX], labels[LAB_MAX_N][PIPS_AGENT_LABEL_MAX];
    if (!vs)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    bool ok = false;
    size_t n_keys = 0, n_var = 1;
    if (o->n_vary && o->n_vs_opts) {
        pips_fail(err, PIPS_ERR_ARG, "--vs-opt and --vary do not mix: give the second rule "
                                     "set's values to --vary");
        goto done;
    }
    if (o->n_vary > LAB_MAX_VARY) {
        pips_fail(err, PIPS_ERR_ARG, "at most %d --vary keys", LAB_MAX_VARY);
        goto done;
    }
    for (size_t k = 0; k < o->n_vary; k++) {
        if (!parse_vary(o->vary[k], &vs[k], err))
            goto done;
        for (size_t j = 0; j < k; j++)
            if (!strcmp(vs[j].key, vs[k].key)) {
                pips_fail(err, PIPS_ERR_ARG, "--vary %s is given twice", vs[k].key);
                goto done;
            }
        for (size_t i = 0; i < o->n_opts; i++)
            if (has_key(o->opts[i], vs[k].key)) {
                pips_fail(err, PIPS_ERR_ARG, "option '%s' is given by both --opt and --vary",
                          vs[k].key);
                goto done;
            }
        if (n_var * vs[k].n > LAB_MAX_VARIANTS) {
            pips_fail(err, PIPS_ERR_ARG, "--vary: more than %d variants in the grid",
                      LAB_MAX_VARIANTS);
            goto done;
        }
        n_var *= vs[k].n;
        snprintf(pt->vary_keys[k], sizeof pt->vary_keys[k], "%s", vs[k].key);
    }
    n_keys = o->n_vary;
    if (o->n_vs_opts) {
        if (o->n_vs_opts > LAB_MAX_VARY) {
            pips_fail(err, PIPS_ERR_ARG, "at most %d --vs-opt options", LAB_MAX_VARY);
            goto done;
        }
        for (size_t k = 0; k < o->n_vs_opts; k++) {
            const char *eq = strchr(o->vs_opts[k], '=');
            if (!eq || eq == o->vs_opts[k] || (size_t)(eq - o->vs_opts[k]) >= PIPS_OPT_KEY_MAX) {
                pips_fail(err, PIPS_ERR_ARG, "--vs-opt '%.80s': expected KEY=VALUE",
                          o->vs_opts[k]);
                goto done;
            }
            snprintf(pt->vary_keys[k], sizeof pt->vary_keys[k], "%.*s",
                     (int)(eq - o->vs_opts[k]), o->vs_opts[k]);
        }
        n_keys = o->n_vs_opts;
        n_var = 2;
        pt->from_vs = true;
    }
    pt->n_vary = n_keys;
    pt->variants = pips_calloc(NULL, n_var, sizeof *pt->variants);
    if (!pt->variants) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    pt->n_variants = n_var;
    for (size_t v = 0; v < n_var; v++) {
        lab_variant *var = &pt->variants[v];
        variant_name(v, var->name, sizeof var->name);
        const char *over[LAB_MAX_VARY];
        char over_buf[LAB_MAX_VARY][PIPS_OPT_KEY_MAX + PIPS_OPT_VALUE_MAX + 1];
        size_t n_over = 0;
        if (pt->from_vs) {
            for (size_t k = 0; v == 1 && k < o->n_vs_opts; k++)
                over[n_over++] = o->vs_opts[k];
        } else {
            /* the last key varies fastest */
            size_t rest = v;
            for (size_t k = n_keys; k-- > 0;) {
                size_t idx = rest % vs[k].n;
                rest /= vs[k].n;
                snprintf(over_buf[k], sizeof over_buf[k], "%s=%s", vs[k].key, vs[k].values[idx]);
            }
            for (size_t k = 0; k < n_keys; k++)
                over[n_over++] = over_buf[k];
        }
        const char *kv[2 * PIPS_MAX_OPTIONS + LAB_MAX_VARY];
        size_t n = variant_kv(o, over, n_over, kv, sizeof kv / sizeof kv[0]);
        games[v] = make_game(o, kv, n, err);
        if (!games[v]) {
            if (pt->from_vs)
                pips_error_prefix(err, "%s", v ? "--vs-opt: " : "");
            else if (n_keys)
                pips_error_prefix(err, "--vary: ");
            goto done;
        }
        var->np = pips_num_players(games[v]);
        options_text(games[v], var->st.options, sizeof var->st.options);
        for (size_t k = 0; k < n_keys; k++) {
            const char *val = pips_options_get(&games[v]->options, pt->vary_keys[k]);
            snprintf(var->values[k], sizeof var->values[k], "%s", val ? val : "?");
        }
        if (o->n_seats != 1 && o->n_seats != (size_t)var->np) {
            if (pt->from_vs && v == 1)
                pips_fail(err, PIPS_ERR_ARG,
                          "--vs-opt: the second rule set has %d seats, the first %d; both must "
                          "seat the same agents",
                          var->np, pt->variants[0].np);
            else if (n_var > 1)
                pips_fail(err, PIPS_ERR_ARG,
                          "variant %s (%s) has %d seats but %zu agents were given (give one "
                          "agent to fill every seat)",
                          var->name, var->st.options, var->np, o->n_seats);
            else
                pips_fail(err, PIPS_ERR_ARG, "%s has %d seats but %zu agents were given",
                          games[v]->def->name, var->np, o->n_seats);
            goto done;
        }
        char resolved[LAB_MAX_N][PIPS_SPEC_MAX];
        for (size_t k = 0; k < o->n_seats; k++) {
            pips_agent *a = pips_agent_new(games[v], o->seats[k], 0, err);
            if (!a) {
                if (n_var > 1)
                    pips_error_prefix(err, "seat %zu in variant %s (%s): ", k + 1, var->name,
                                      var->st.options);
                else
                    pips_error_prefix(err, "seat %zu: ", k + 1);
                goto done;
            }
            snprintf(resolved[k], sizeof resolved[k], "%s", pips_agent_spec(a));
            if (v == 0) {
                snprintf(specs[k], sizeof specs[k], "%s", pips_agent_spec(a));
                pips_agent_label(a, labels[k], sizeof labels[k]);
                pt->has_mcts |= is_mcts_spec(specs[k]);
            }
            pips_agent_free(a);
        }
        if (v == 0) { /* identical specs are one agent */
            const char *names[LAB_MAX_N];
            for (size_t k = 0; k < o->n_seats; k++)
                names[k] = specs[k];
            pt->n_specs = o->n_seats;
            pt->n_agents = pips_pool_specs(names, o->n_seats, pt->spec_agent);
            for (size_t k = 0; k < o->n_seats; k++) {
                snprintf(pt->agents[pt->spec_agent[k]], sizeof pt->agents[0], "%s", specs[k]);
                snprintf(pt->agent_labels[pt->spec_agent[k]], sizeof pt->agent_labels[0], "%s",
                         labels[k]);
                pt->agent_seats[pt->spec_agent[k]] += o->n_seats > 1;
            }
        }
        for (size_t k = 0; k < o->n_seats; k++) {
            char *mine = var->agents[pt->spec_agent[k]];
            if (*mine && strcmp(mine, resolved[k])) { /* pooled in A, apart here */
                pips_fail(err, PIPS_ERR_ARG,
                          "seat %zu in variant %s (%s): '%s' is '%s' here but the same agent as "
                          "'%s' in variant A; give specs that are the same in every variant",
                          k + 1, var->name, var->st.options, o->seats[k], resolved[k], mine);
                goto done;
            }
            snprintf(mine, sizeof var->agents[0], "%s", resolved[k]);
        }
        for (size_t a = 0; v > 0 && a < pt->n_agents; a++)
            if (strcmp(var->agents[a], pt->agents[a]) &&
                !strstr(pt->agent_labels[a], " (by seat count)")) {
                /* a level that resolves by seat count: say so rather than name A's spec */
                char level[PIPS_AGENT_LABEL_MAX];
                snprintf(level, sizeof level, "%s", pt->agent_labels[a]);
                char *paren = strstr(level, " (");
                if (paren)
                    *paren = '\0';
                snprintf(pt->agent_labels[a], sizeof pt->agent_labels[0], "%.40s (by seat count)",
                         level);
            }
        if (o->keep_records) {
            var->records = pips_calloc(NULL, o->games, sizeof *var->records);
            if (!var->records) {
                pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the records");
                goto done;
            }
        }
    }
    ok = true;
done:
    pips_free(NULL, vs);
    return ok;
}

/* The exact solves, one variant after another, in a thread of their own
 * while the games are played (each solve runs in a child process). */
typedef struct exact_job {
    const pips_playtest_opts *o;
    pips_playtest *pt;
    pips_game **games;
} exact_job;

static void *exact_thread(void *arg)
{
    exact_job *x = arg;
    for (size_t v = 0; v < x->pt->n_variants; v++)
        lab_exact_solve(x->games[v], x->o->exact_seconds, x->o->exact_mb ? x->o->exact_mb : 64,
                        &x->pt->variants[v].exact);
    return NULL;
}

unsigned long pips_playtest_drama_every(unsigned long games, unsigned long drama_every)
{
    if (drama_every)
        return drama_every;
    /* the least K that leaves at most PIPS_LAB_DRAMA_GAMES of games 0, K, 2K, ... */
    return games <= PIPS_LAB_DRAMA_GAMES ? 1 : (games - 1) / PIPS_LAB_DRAMA_GAMES + 1;
}

pips_playtest *pips_playtest_run(const pips_playtest_opts *o, pips_error *err)
{
    return lab_playtest_run(o, NULL, err);
}

pips_playtest *lab_playtest_run(const pips_playtest_opts *o, const lab_run_hooks *h,
                                pips_error *err)
{
    if (!o) {
        pips_fail(err, PIPS_ERR_ARG, "playtest: no options (NULL)");
        return NULL;
    }
    pips_playtest *pt = pips_calloc(NULL, 1, sizeof *pt);
    pips_game **games = pips_calloc(NULL, LAB_MAX_VARIANTS, sizeof *games);
    run_ctx *ctx = NULL;
    pips_playtest *views = NULL;
    lab_acc *acc = NULL;
    size_t n_acc = 0;
    bool ok = false;
    if (!pt || !games) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (o->games == 0 || o->games > PIPS_LAB_MAX_GAMES) {
        pips_fail(err, PIPS_ERR_ARG, "the number of games must be from 1 to %lu",
                  (unsigned long)PIPS_LAB_MAX_GAMES);
        goto done;
    }
    if (o->n_seats == 0 || o->n_seats > LAB_MAX_N) {
        pips_fail(err, PIPS_ERR_ARG, "give 1 to %d agents", LAB_MAX_N);
        goto done;
    }
    /* the base game first: its errors name no variant */
    games[0] = make_game(o, o->opts, o->n_opts, err);
    if (!games[0])
        goto done;
    snprintf(pt->game, sizeof pt->game, "%s", games[0]->def->name);
    snprintf(pt->title, sizeof pt->title, "%s", games[0]->def->title);
    pips_game_free(games[0]);
    games[0] = NULL;
    pt->games = o->games;
    pt->seed = o->seed;
    pt->threads = o->threads < 1 ? 1 : o->threads;
    pt->seating = o->fixed_seats ? PIPS_SEATING_FIXED : o->seating;
    if (pt->seating != PIPS_SEATING_ROTATE && pt->seating != PIPS_SEATING_ALL &&
        pt->seating != PIPS_SEATING_FIXED) {
        pips_fail(err, PIPS_ERR_ARG, "unknown seating %d", (int)o->seating);
        goto done;
    }
    pt->threshold = o->decisive_threshold > 0 ? o->decisive_threshold : 0.8;
    pt->drama_every = o->no_drama ? 0 : pips_playtest_drama_every(o->games, o->drama_every);
    pt->drama_by_default = !o->no_drama && !o->drama_every && pt->drama_every > 1;
    run_info(o, pt);
    if (!build_variants(o, pt, games, err))
        goto done;
    pt->np = pt->variants[0].np;
    int rank, size;
    lab_dist_get(&rank, &size);
    pt->ranks = size;
    ctx = pips_calloc(NULL, pt->n_variants, sizeof *ctx);
    views = pips_calloc(NULL, pt->n_variants, sizeof *views);
    acc = pips_calloc(NULL, pt->n_variants, sizeof *acc);
    if (!ctx || !views || !acc) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t v = 0; v < pt->n_variants; v++) {
        int np = pt->variants[v].np;
        views[v] = *pt;
        views[v].np = np;
        memcpy(views[v].agents, pt->variants[v].agents, sizeof views[v].agents);
        ctx[v] = (run_ctx){.o = o, .h = h, .g = games[v], .pt = &views[v]};
        if (!lab_acc_init(&acc[v], np)) {
            pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
            goto done;
        }
        n_acc = v + 1;
    }
    unsigned long jobs = (unsigned long)pt->n_variants * o->games;
    pt->done = pips_calloc(NULL, jobs / 8 + 1, 1);
    if (!pt->done) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (o->resume_state || (h && h->resume)) {
        if (size > 1 || o->keep_records) {
            pips_fail(err, PIPS_ERR_ARG, "a run is resumed %s",
                      size > 1 ? "in one process, not under MPI" : "without --records");
            goto done;
        }
        if (h && h->resume ? !lab_state_apply(pt, h->resume, h->resume_where, acc, pt->done, err)
                           : !lab_state_load(pt, o->resume_state, acc, pt->done, err))
            goto done;
    }
    /* exact values first (rank 0 alone writes the report): the solve forks,
     * and a fork while worker threads allocate can leave the child stuck on
     * an allocator lock (seen under AddressSanitizer), so no thread runs yet */
    exact_job ex = {.o = o, .pt = pt, .games = games};
    if (rank == 0 && o->exact_seconds > 0)
        exact_thread(&ex);
    double t0 = pips_now();
    pool p = {.o = o, .h = h, .pt = pt, .ctx = ctx, .acc = acc, .jobs = jobs,
              .first = (unsigned long)rank, .stride = (unsigned long)size,
              .done_bits = pt->done};
    p.total = p.jobs > p.first ? (p.jobs - p.first + p.stride - 1) / p.stride : 0;
    for (unsigned long j = p.first; j < jobs; j += p.stride)
        p.done += job_done(pt->done, j); /* a resumed run's progress starts there */
    unsigned long done_before = p.done;
    pthread_mutex_init(&p.lock, NULL);
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < pt->threads && t < 64; t++) {
        if (pthread_create(&tid[t], NULL, worker, &p) != 0)
            break;
        started = t;
    }
    worker(&p);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&p.lock);
    pt->seconds = pips_now() - t0; /* the games alone: the solves are timed apart */
    pt->played = size > 1 ? jobs : p.done - done_before;
    for (unsigned long j = 0; size == 1 && j < jobs; j++)
        pt->partial |= !job_done(pt->done, j);
    /* a script that fails in one game stops the run with a partial report
     * (naming that game and its seed) rather than losing the games played;
     * under MPI every rank fails as before */
    if (p.failed && p.err.code == PIPS_ERR_SCRIPT && size == 1) {
        pt->failed = true;
        pt->failure = p.err;
        p.failed = false;
    }
    if (p.failed && err)
        *err = p.err;
    char **records[LAB_MAX_VARIANTS];
    for (size_t v = 0; v < pt->n_variants; v++)
        records[v] = pt->variants[v].records;
    if (!lab_dist_combine(acc, pt->n_variants, o->keep_records ? records : NULL, o->games,
                          !p.failed, err))
        goto done;
    /* a saved state needs the sums as they were (finish sorts two lists,
     * which does not change them as multisets) */
    for (size_t v = 0; v < pt->n_variants; v++)
        if (!lab_acc_finish(&acc[v], (int)pt->n_agents, &pt->variants[v].st, err))
            goto done;
    pt->acc = acc;
    acc = NULL;
    ok = true;
done:
    for (size_t v = 0; acc && v < n_acc; v++)
        lab_acc_free(&acc[v]);
    for (size_t v = 0; games && v < LAB_MAX_VARIANTS; v++)
        pips_game_free(games[v]);
    pips_free(NULL, games);
    pips_free(NULL, acc);
    pips_free(NULL, ctx);
    pips_free(NULL, views);
    if (!ok) {
        pips_playtest_free(pt);
        return NULL;
    }
    return pt;
}

void pips_playtest_free(pips_playtest *pt)
{
    if (!pt)
        return;
    for (size_t v = 0; v < pt->n_variants; v++) {
        lab_variant *var = &pt->variants[v];
        pips_free(NULL, var->st.branch_mean);
        pips_free(NULL, var->st.branch_count);
        for (unsigned long i = 0; var->records && i < pt->games; i++)
            pips_free(NULL, var->records[i]);
        pips_free(NULL, var->records);
        if (pt->acc)
            lab_acc_free(&pt->acc[v]);
    }
    pips_free(NULL, pt->acc);
    pips_free(NULL, pt->done);
    pips_free(NULL, pt->variants);
    pips_free(NULL, pt);
}

bool pips_playtest_partial(const pips_playtest *pt) { return pt->partial; }

bool pips_playtest_failure(const pips_playtest *pt, pips_error *err)
{
    if (pt->failed && err)
        *err = pt->failure;
    return pt->failed;
}

double pips_playtest_games_per_second(const pips_playtest *pt)
{
    double games = (double)pt->played;
    return pt->seconds > 0 ? games / pt->seconds : 0;
}
