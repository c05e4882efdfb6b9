/*
 * playtest.c — runs a playtest: worker threads take game numbers in turn and
 * play each game with fresh agents; the results are stored by game number
 * and aggregated afterwards in game order.
 *
 * Each game runs on a pips_table (the library's match driver): game i's
 * match seed is pips_table_game_seed(seed, i), and the table seeds the
 * agents and has them observe every move, so game 0 of a playtest is the
 * game `pips play` and `pips serve` play with the same seed and seats.
 * A second rule set (vs) replays the same game numbers with the same
 * seeds. With MPI (dist.c) each rank plays every size-th game.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab_impl.h"
#include "pips/match.h"
#include "pips/table.h"

typedef struct run_ctx {
    const pips_playtest_opts *o;
    const pips_game *g;
    const pips_playtest *pt;
    game_result *results;
    unsigned long total;  /* games over both rule sets, for progress */
    unsigned long *done;  /* shared progress counter */
    pthread_mutex_t *lock;
    unsigned long next;
    unsigned long first, stride; /* this process plays games first, first + stride, ... */
    bool failed;
    pips_error err;
} run_ctx;

static bool is_mcts_spec(const char *spec) { return !strncmp(spec, "mcts", 4); }

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
    bool failed; /* out of memory while logging */
} game_log;

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
    if (ev->kind == PIPS_TABLE_CHANCE) {
        r->chance_plies++;
        return;
    }
    if (ev->kind != PIPS_TABLE_MOVE || lg->failed)
        return;
    if (!log_grow(lg)) {
        lg->failed = true;
        return;
    }
    int who = ev->seat;
    r->branching[r->length] = (uint32_t)pips_node_moves(lg->g, ev->before, &lg->branch_rng,
                                                        lg->buf, NULL);
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
    }
    r->length++;
}

/* Game `index` of the playtest: match seed pips_table_game_seed(seed,
 * index), seats rotated by index unless fixed, agents seeded by the table
 * (pips/table.h), so game 0 is exactly `pips play` with the same seed. */
static bool play_one(run_ctx *c, unsigned long index, game_result *r, pips_error *err)
{
    const pips_game *g = c->g;
    const pips_game_def *d = g->def;
    const pips_playtest *pt = c->pt;
    int np = pt->np;
    bool ok = false;
    game_log lg = {.g = g, .r = r, .br_cap = 64, .est_cap = 64};
    pips_rng_derive(&lg.branch_rng, c->o->seed ^ 0x9e3779b97f4a7c15ull, index);
    lg.buf = pips_calloc(g->alloc, pips_max_moves(g), sizeof *lg.buf);
    lg.est = pips_malloc(g->alloc, lg.est_cap * 2 * sizeof *lg.est);
    lg.est_seat = pips_malloc(g->alloc, lg.est_cap * sizeof *lg.est_seat);
    r->branching = pips_malloc(g->alloc, lg.br_cap * sizeof *r->branching);
    pips_table *table = NULL;
    pips_game *mg = pips_game_new_opts(d, &g->options, g->alloc, err);
    pips_match *match =
        mg ? pips_match_from_game(mg, pips_table_game_seed(c->o->seed, index), err) : NULL;
    if (!match)
        goto done;
    if (!lg.buf || !lg.est || !lg.est_seat || !r->branching) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    const char *seat_names[LAB_MAX_N];
    for (int s = 0; s < np; s++) {
        int k = pt->fixed_seats ? s : (int)((s + index) % (unsigned long)np);
        r->seat_agent[s] = k;
        seat_names[s] = pt->agents[k];
    }
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
    if (!pips_table_over(table)) {
        r->unfinished = true;
        for (int s = 0; s < np; s++)
            r->returns[s] = 1.0 / np;
    } else {
        pips_table_returns(table, r->returns);
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

static void *worker(void *arg)
{
    run_ctx *c = arg;
    for (;;) {
        pthread_mutex_lock(c->lock);
        unsigned long i = c->first + c->stride * c->next++;
        bool stop = c->failed || i >= c->o->games;
        pthread_mutex_unlock(c->lock);
        if (stop)
            break;
        pips_error err;
        bool ok = play_one(c, i, &c->results[i], &err);
        pthread_mutex_lock(c->lock);
        if (!ok && !c->failed) {
            c->failed = true;
            c->err = err;
            pips_error_prefix(&c->err, "game %lu: ", i + 1);
        }
        unsigned long done = ++*c->done;
        if (c->o->progress && ok)
            c->o->progress(c->o->progress_ud, done, c->total);
        pthread_mutex_unlock(c->lock);
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of sorted v (linear interpolation). */
static double quantile(const double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

static bool aggregate(const pips_playtest *pt, const game_result *res, ruleset_stats *st,
                      pips_error *err)
{
    unsigned long n = pt->games;
    int np = pt->np;
    st->games = n;
    st->np = np;
    st->n_agents = (int)pt->n_agents;
    double *len = pips_malloc(NULL, (n ? n : 1) * sizeof *len);
    double *dec = pips_malloc(NULL, (n ? n : 1) * sizeof *dec);
    if (!len || !dec) {
        pips_free(NULL, len);
        pips_free(NULL, dec);
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    }
    size_t max_len = 0;
    double sum = 0, sum2 = 0;
    double seat_wins[LAB_MAX_N] = {0};
    for (unsigned long i = 0; i < n; i++) {
        const game_result *r = &res[i];
        for (int s = 0; s < np; s++) {
            /* a draw: tied for the best return with others; with no winner
             * a seat whose return is below the best has lost */
            double best = 0;
            for (int t = 0; t < np; t++)
                if (r->returns[t] > best)
                    best = r->returns[t];
            wdl *cells[3] = {&st->agent[r->seat_agent[s]], &st->seat[s],
                             &st->agent_seat[r->seat_agent[s]][s]};
            for (int k = 0; k < 3; k++) {
                cells[k]->n += 1;
                cells[k]->score += r->returns[s];
                if (r->winner == s)
                    cells[k]->w += 1;
                else if (r->winner < 0 && r->returns[s] == best)
                    cells[k]->d += 1;
                else
                    cells[k]->l += 1;
            }
            int k = r->seat_agent[s];
            st->time_mean[k] += r->time_sum[s];
            st->time_moves[k] += r->moves[s];
            if (r->time_max[s] > st->time_max[k])
                st->time_max[k] = r->time_max[s];
        }
        if (r->winner < 0)
            st->draws += 1;
        else
            seat_wins[r->winner] += 1;
        st->unfinished += r->unfinished;
        len[i] = r->length;
        sum += r->length;
        sum2 += (double)r->length * r->length;
        if (r->length > max_len)
            max_len = r->length;
    }
    for (size_t k = 0; k < pt->n_agents; k++)
        st->time_mean[k] = st->time_moves[k] ? st->time_mean[k] / st->time_moves[k] : 0;
    /* seat balance */
    st->decisive_games = n - st->draws;
    if (st->decisive_games > 0 && np > 1) {
        double expect = st->decisive_games / np, chi2 = 0;
        for (int s = 0; s < np; s++)
            chi2 += (seat_wins[s] - expect) * (seat_wins[s] - expect) / expect;
        st->chi2 = chi2;
        st->chi2_p = pips_chi2_sf(chi2, np - 1);
    } else {
        st->chi2 = 0;
        st->chi2_p = 1;
    }
    double lo = 1, hi = 0;
    for (int s = 0; s < np; s++) {
        double rate = lab_rate(st->seat[s].score, st->seat[s].n);
        if (rate < lo)
            lo = rate;
        if (rate > hi)
            hi = rate;
    }
    st->seat_spread = n ? hi - lo : 0;
    /* length */
    if (n) {
        st->len_mean = sum / n;
        double var = n > 1 ? (sum2 - sum * sum / n) / (n - 1) : 0;
        st->len_sd = var > 0 ? sqrt(var) : 0;
        qsort(len, n, sizeof *len, cmp_double);
        st->len_min = len[0];
        st->len_max = len[n - 1];
        st->len_median = quantile(len, n, 0.5);
        st->len_p10 = quantile(len, n, 0.1);
        st->len_p25 = quantile(len, n, 0.25);
        st->len_p75 = quantile(len, n, 0.75);
        st->len_p90 = quantile(len, n, 0.9);
    }
    /* histogram: integer-aligned bins covering min..max */
    double span = st->len_max - st->len_min + 1;
    st->hist_width = ceil(span / LAB_HIST_BINS);
    if (st->hist_width < 1)
        st->hist_width = 1;
    st->hist_lo = st->len_min;
    for (unsigned long i = 0; i < n; i++) {
        size_t b = (size_t)((res[i].length - st->hist_lo) / st->hist_width);
        if (b >= LAB_HIST_BINS)
            b = LAB_HIST_BINS - 1;
        st->hist[b]++;
    }
    /* branching by ply */
    st->branch_plies = max_len;
    st->branch_mean = pips_calloc(NULL, max_len ? max_len : 1, sizeof *st->branch_mean);
    st->branch_count = pips_calloc(NULL, max_len ? max_len : 1, sizeof *st->branch_count);
    if (!st->branch_mean || !st->branch_count) {
        pips_free(NULL, len);
        pips_free(NULL, dec);
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    }
    double bsum = 0, bn = 0;
    for (unsigned long i = 0; i < n; i++)
        for (uint32_t k = 0; k < res[i].length; k++) {
            st->branch_mean[k] += res[i].branching[k];
            st->branch_count[k]++;
            bsum += res[i].branching[k];
            bn += 1;
        }
    for (size_t k = 0; k < max_len; k++)
        if (st->branch_count[k])
            st->branch_mean[k] /= st->branch_count[k];
    st->branch_overall = bn ? bsum / bn : 0;
    /* decisiveness */
    size_t nd = 0;
    double dsum = 0;
    for (unsigned long i = 0; i < n; i++)
        if (res[i].decisive >= 0) {
            dec[nd++] = res[i].decisive;
            dsum += res[i].decisive;
        }
    st->decisive_known = nd;
    if (nd) {
        qsort(dec, nd, sizeof *dec, cmp_double);
        st->decisive_mean = dsum / nd;
        st->decisive_median = quantile(dec, nd, 0.5);
    }
    pips_free(NULL, len);
    pips_free(NULL, dec);
    return true;
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

/* Plays the games of one rule set and aggregates them into st. */
static bool run_ruleset(pips_playtest *pt, const pips_playtest_opts *o, const pips_game *g,
                        ruleset_stats *st, char **records, unsigned long total,
                        unsigned long *done, pips_error *err)
{
    game_result *results = pips_calloc(NULL, o->games ? o->games : 1, sizeof *results);
    if (!results)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for %lu games", o->games);
    pthread_mutex_t lock;
    pthread_mutex_init(&lock, NULL);
    int rank, size;
    lab_dist_get(&rank, &size);
    run_ctx c = {.o = o, .g = g, .pt = pt, .results = results, .total = total, .done = done,
                 .lock = &lock, .next = 0, .first = (unsigned long)rank,
                 .stride = (unsigned long)size, .failed = false};
    int threads = o->threads < 1 ? 1 : o->threads;
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++) {
        if (pthread_create(&tid[t], NULL, worker, &c) != 0)
            break;
        started = t;
    }
    worker(&c);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&lock);
    bool ok = !c.failed;
    if (!ok && err)
        *err = c.err;
    ok = lab_dist_exchange(results, o->games, pt->np, o->keep_records, ok, err);
    if (ok) {
        options_text(g, st->options, sizeof st->options);
        ok = aggregate(pt, results, st, err);
    }
    for (unsigned long i = 0; i < o->games; i++) {
        pips_free(g->alloc, results[i].branching);
        if (records)
            records[i] = results[i].record;
        else
            pips_free(NULL, results[i].record);
    }
    pips_free(NULL, results);
    return ok;
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

pips_playtest *pips_playtest_run(const pips_playtest_opts *o, pips_error *err)
{
    pips_game *g = make_game(o, o->opts, o->n_opts, err);
    if (!g)
        return NULL;
    pips_game *gv = NULL;
    pips_playtest *pt = pips_calloc(NULL, 1, sizeof *pt);
    if (!pt) {
        pips_game_free(g);
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    int np = pips_num_players(g);
    if (o->n_seats != (size_t)np) {
        pips_fail(err, PIPS_ERR_ARG, "%s has %d seats but %zu agents were given", g->def->name,
                  np, o->n_seats);
        goto fail;
    }
    if (o->games == 0) {
        pips_fail(err, PIPS_ERR_ARG, "the number of games must be at least 1");
        goto fail;
    }
    snprintf(pt->game, sizeof pt->game, "%s", g->def->name);
    snprintf(pt->title, sizeof pt->title, "%s", g->def->title);
    pt->np = np;
    pt->n_agents = o->n_seats;
    pt->games = o->games;
    pt->seed = o->seed;
    pt->threads = o->threads < 1 ? 1 : o->threads;
    pt->fixed_seats = o->fixed_seats;
    pt->threshold = o->decisive_threshold > 0 ? o->decisive_threshold : 0.8;
    /* check and normalise every agent spec once */
    for (size_t k = 0; k < o->n_seats; k++) {
        pips_agent *a = pips_agent_new(g, o->seats[k], 0, err);
        if (!a) {
            pips_error_prefix(err, "seat %zu: ", k + 1);
            goto fail;
        }
        snprintf(pt->agents[k], sizeof pt->agents[k], "%s", pips_agent_spec(a));
        pt->has_mcts |= is_mcts_spec(pt->agents[k]);
        pips_agent_free(a);
    }
    if (o->n_vs_opts) {
        /* the second rule set: the base options with the vs overrides */
        const char *kv[2 * PIPS_MAX_OPTIONS];
        size_t n = 0;
        for (size_t i = 0; i < o->n_opts && n < 2 * PIPS_MAX_OPTIONS; i++) {
            const char *eq = strchr(o->opts[i], '=');
            size_t klen = eq ? (size_t)(eq - o->opts[i]) : strlen(o->opts[i]);
            bool overridden = false;
            for (size_t j = 0; j < o->n_vs_opts; j++)
                overridden |= !strncmp(o->vs_opts[j], o->opts[i], klen) &&
                              o->vs_opts[j][klen] == '=';
            if (!overridden)
                kv[n++] = o->opts[i];
        }
        for (size_t j = 0; j < o->n_vs_opts && n < 2 * PIPS_MAX_OPTIONS; j++)
            kv[n++] = o->vs_opts[j];
        gv = make_game(o, kv, n, err);
        if (!gv) {
            pips_error_prefix(err, "--vs-opt: ");
            goto fail;
        }
        if (pips_num_players(gv) != np) {
            pips_fail(err, PIPS_ERR_ARG,
                      "--vs-opt: the second rule set has %d seats, the first %d; both must "
                      "seat the same agents",
                      pips_num_players(gv), np);
            goto fail;
        }
        pt->has_vs = true;
        for (size_t k = 0; k < o->n_seats; k++) {
            pips_agent *a = pips_agent_new(gv, o->seats[k], 0, err);
            if (!a) {
                pips_error_prefix(err, "seat %zu under --vs-opt: ", k + 1);
                goto fail;
            }
            pips_agent_free(a);
        }
    }
    double t0 = pips_now();
    unsigned long done = 0, total = o->games * (pt->has_vs ? 2 : 1);
    if (o->keep_records) {
        for (int r = 0; r < (gv ? 2 : 1); r++) {
            pt->records[r] = pips_calloc(NULL, o->games, sizeof *pt->records[r]);
            if (!pt->records[r]) {
                pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the records");
                goto fail;
            }
        }
    }
    if (!run_ruleset(pt, o, g, &pt->base, pt->records[0], total, &done, err))
        goto fail;
    if (gv && !run_ruleset(pt, o, gv, &pt->vs, pt->records[1], total, &done, err)) {
        pips_error_prefix(err, "--vs-opt: ");
        goto fail;
    }
    pt->seconds = pips_now() - t0;
    pips_game_free(g);
    pips_game_free(gv);
    return pt;
fail:
    pips_game_free(g);
    pips_game_free(gv);
    pips_playtest_free(pt);
    return NULL;
}

void pips_playtest_free(pips_playtest *pt)
{
    if (!pt)
        return;
    pips_free(NULL, pt->base.branch_mean);
    pips_free(NULL, pt->base.branch_count);
    pips_free(NULL, pt->vs.branch_mean);
    pips_free(NULL, pt->vs.branch_count);
    for (int r = 0; r < 2; r++) {
        for (unsigned long i = 0; pt->records[r] && i < pt->games; i++)
            pips_free(NULL, pt->records[r][i]);
        pips_free(NULL, pt->records[r]);
    }
    pips_free(NULL, pt);
}

double pips_playtest_games_per_second(const pips_playtest *pt)
{
    double games = (double)pt->games * (pt->has_vs ? 2 : 1);
    return pt->seconds > 0 ? games / pt->seconds : 0;
}
