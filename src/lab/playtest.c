/*
 * playtest.c — runs a playtest: worker threads take game numbers in turn and
 * play each game with fresh agents; the results are stored by game number
 * and aggregated afterwards in game order.
 *
 * Game i draws everything from an rng derived from (seed, i): the seed of
 * its pips_match (which draws the chance outcomes and keeps the record),
 * then the agents' seeds (one per seat, in seat order). Agents see every
 * move, chance outcomes included, through pips_agent_observe (for tree
 * reuse). A second rule set (vs) replays the same game numbers with the
 * same derived rngs. With MPI (dist.c) each rank plays every size-th game.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab_impl.h"
#include "pips/match.h"

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

static bool play_one(run_ctx *c, unsigned long index, game_result *r, pips_error *err)
{
    const pips_game *g = c->g;
    const pips_game_def *d = g->def;
    const pips_playtest *pt = c->pt;
    int np = pt->np;
    pips_rng rng, branch_rng;
    pips_rng_derive(&rng, c->o->seed, index);
    pips_rng_derive(&branch_rng, c->o->seed ^ 0x9e3779b97f4a7c15ull, index);
    pips_agent *agents[LAB_MAX_N] = {0};
    bool ok = false;
    size_t mm = pips_max_moves(g);
    pips_move *buf = pips_calloc(g->alloc, mm, sizeof *buf);
    /* the winner's value estimates: (ply, estimate) of MCTS seats */
    size_t est_cap = 64, est_n = 0;
    double *est = pips_malloc(g->alloc, est_cap * 2 * sizeof *est);
    int *est_seat = pips_malloc(g->alloc, est_cap * sizeof *est_seat);
    size_t br_cap = 64;
    r->branching = pips_malloc(g->alloc, br_cap * sizeof *r->branching);
    /* the match (its own copy of the game) keeps the history for the record
     * and draws the dice from its seed */
    uint64_t match_seed = pips_rng_next(&rng);
    pips_game *mg = pips_game_new_opts(d, &g->options, g->alloc, err);
    pips_match *match = mg ? pips_match_from_game(mg, match_seed, err) : NULL;
    if (!match)
        goto done;
    if (!buf || !est || !est_seat || !r->branching) {
        pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
        goto done;
    }
    const char *seat_names[LAB_MAX_N];
    char seat_buf[LAB_MAX_N][PIPS_SEAT_MAX];
    for (int s = 0; s < np; s++) {
        int k = pt->fixed_seats ? s : (int)((s + index) % (unsigned long)np);
        r->seat_agent[s] = k;
        agents[s] = pips_agent_new(g, pt->agents[k], pips_rng_next(&rng), err);
        if (!agents[s])
            goto done;
        snprintf(seat_buf[s], PIPS_SEAT_MAX, "%.*s", PIPS_SEAT_MAX - 1, pt->agents[k]);
        seat_names[s] = seat_buf[s];
    }
    if (!pips_match_set_seats(match, seat_names, np, err))
        goto done;
    const void *state = match->state;
    r->winner = -1;
    r->decisive = -1;
    for (;;) {
        int who = d->to_move(g, state);
        if (who == PIPS_OVER)
            break;
        if (r->length + r->chance_plies >= LAB_MAX_PLIES) {
            r->unfinished = true;
            break;
        }
        pips_move m;
        if (who == PIPS_CHANCE) {
            /* the agents observe the outcome with the state before it, which
             * the match keeps in its history */
            pips_move outcome;
            if (!pips_match_roll(match, &outcome, err))
                goto done;
            const unsigned char *before = match->history + (match->n_moves - 1) * d->state_size;
            for (int s = 0; s < np; s++)
                pips_agent_observe(agents[s], before, outcome);
            r->chance_plies++;
            continue;
        }
        size_t n = pips_node_moves(g, state, &branch_rng, buf, NULL);
        if (r->length == br_cap) {
            br_cap *= 2;
            uint32_t *nb = pips_realloc(g->alloc, r->branching, br_cap * sizeof *nb);
            if (!nb) {
                pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
                goto done;
            }
            r->branching = nb;
        }
        r->branching[r->length] = (uint32_t)n;
        double t0 = pips_now();
        if (!pips_agent_choose(agents[who], state, &m, err)) {
            pips_error_prefix(err, "seat %d (%s), move %u: ", who + 1,
                              pips_agent_spec(agents[who]), r->length + 1);
            goto done;
        }
        double dt = pips_now() - t0;
        r->time_sum[who] += dt;
        if (dt > r->time_max[who])
            r->time_max[who] = dt;
        r->moves[who]++;
        double v;
        if (is_mcts_spec(pips_agent_spec(agents[who])) &&
            pips_agent_last_value(agents[who], &v)) {
            if (est_n == est_cap) {
                est_cap *= 2;
                double *ne = pips_realloc(g->alloc, est, est_cap * 2 * sizeof *ne);
                if (ne)
                    est = ne;
                int *ns = ne ? pips_realloc(g->alloc, est_seat, est_cap * sizeof *ns) : NULL;
                if (!ne || !ns) {
                    pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
                    goto done;
                }
                est_seat = ns;
            }
            est[2 * est_n] = r->length;
            est[2 * est_n + 1] = v;
            est_seat[est_n++] = who;
        }
        r->length++;
        for (int s = 0; s < np; s++)
            pips_agent_observe(agents[s], state, m);
        if (!pips_match_play(match, m, err)) {
            pips_error_prefix(err, "seat %d (%s) chose an illegal move: ", who + 1,
                              pips_agent_spec(agents[who]));
            goto done;
        }
    }
    if (r->unfinished) {
        for (int s = 0; s < np; s++)
            r->returns[s] = 1.0 / np;
    } else {
        d->returns(g, state, r->returns);
    }
    if (c->o->keep_records) {
        char *text = pips_match_to_record(match, err);
        if (!text)
            goto done;
        r->record = pips_strdup(NULL, text);
        pips_free(match->game->alloc, text);
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
        for (size_t i = 0; i < est_n; i++) {
            double v = est[2 * i + 1];
            if (est_seat[i] != r->winner) {
                if (np != 2)
                    continue;
                v = 1 - v;
            }
            if (v >= pt->threshold) {
                if (from < 0)
                    from = est[2 * i];
            } else {
                from = -1;
            }
        }
        if (from >= 0)
            r->decisive = from / r->length;
    }
    ok = true;
done:
    for (int s = 0; s < np; s++)
        pips_agent_free(agents[s]);
    pips_match_free(match);
    pips_free(g->alloc, buf);
    pips_free(g->alloc, est);
    pips_free(g->alloc, est_seat);
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
