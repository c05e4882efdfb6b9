/*
 * nimitz_solve.c — the exact solver of two-player Nimitz (normal and
 * misere), def->solve.
 *
 * Nimitz is impartial (NIM-R1..R5: both players share the store), so a
 * position's value for the player to move depends on the position alone:
 * a win when some placement leads to a loss for the opponent; with no
 * placement, a loss in normal play and a win in misere play (NIM-R5).
 *
 * Positions are stored under a canonical key: the least, over the layout's
 * rotations and reflections, of the board read cell by cell with colours
 * and orientations renamed in order of first appearance. Renaming is a
 * symmetry because colours and orientations are only compared for equality
 * (the rulings' Symmetries section) and every colour starts with the same
 * counts; it also covers the board's own remapping of flat orientations.
 * The key holds the whole position (a cell's sizes, colours and
 * orientation, or orientations of a free tree), so the table never trusts a
 * hash alone. Free trees (NIM-R3's tree_orientation=free) keep every
 * symmetry: orientations are still only compared for equality.
 *
 * A node generates one placement for all the colours absent from the board
 * and one for all the absent orientations (interchangeable), tries its
 * children fewest distinct replies first, and looks two plies ahead: in
 * normal play a child from which the opponent can leave us without a move
 * is lost unsearched; in misere a child whose every reply leaves us without
 * one wins at once. A full table bucket gives up its cheapest entry.
 * Every solve is bounded: time, nodes, and a memory budget whose table,
 * once it has replaced as many results as it holds, stops the solve.
 *
 * Threads share the table (striped spin locks) and search the same tree;
 * in the first plies a child that another thread is searching (a small
 * table of busy marks) is put off to a second pass, so threads spread out.
 * The first thread to finish ends the others, whose unfinished results are
 * never stored.
 *
 * Invariants: a table entry's key is a complete canonical position and its
 * value is exact; entries may be overwritten, never altered.
 */
#include "games/nimitz/nimitz.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SOLVE_MAX_CELLS 15 /* shapes in one word, labels 5 cells a word in three */
#define SOLVE_MAX_COLOURS 8 /* a renamed colour takes 3 bits of the key */
#define SOLVE_MAX_PIECES (SOLVE_MAX_COLOURS * 3)
#define KEY_WORDS 4
#define CELLS_PER_WORD 5
#define FREE_CELLS_PER_WORD 3 /* tree_orientation=free: 18 bits a cell */
#define SOLVE_MAX_FREE_CELLS (FREE_CELLS_PER_WORD * (KEY_WORDS - 1))
#define ENTRY_USED (1ull << 63)
#define ENTRY_WIN (1ull << 62)
#define BUCKET 4
#define LOCK_STRIPES 4096
#define MAX_DEPTH (SOLVE_MAX_CELLS * 3 + 1)
#define BUSY_SLOTS 4096
#define NORMAL_LOOKAHEAD_PLIES 2
#define MISERE_LIVE_LIMIT 4 /* count live replies of children with this many replies or fewer */
#define SHARED_PLIES 8 /* plies where threads avoid each other's subtrees */
#define FIRST_ENTRIES ((size_t)1 << 12) /* the shared table's first size: 128 KiB */
#define LOCAL_ENTRIES ((size_t)1 << 17) /* 4 MiB a worker: stays in cache (at most) */
#define LOCAL_REMAINING 7 /* positions with at most this many pieces left to place go local */

typedef struct tt_entry {
    uint64_t k[KEY_WORDS]; /* k[0] also holds the flags and the work (ENTRY_FLAGS) */
} tt_entry;

typedef struct solver {
    const nim_config *cf;
    bool misere;
    /* The shared table starts small and doubles (grow_table) while half
     * full, up to max_entries (the budget): a table sized to the search
     * stays in cache and touches few pages. Both change only while every
     * lock stripe is held. */
    tt_entry *_Atomic table;
    _Atomic size_t mask; /* entries - 1, a multiple of BUCKET minus 1 */
    size_t max_entries;
    atomic_flag growing;
    const pips_allocator *alloc;
    atomic_flag locks[LOCK_STRIPES];
    atomic_uint_fast64_t stored, nodes, replaced;
    atomic_bool stop;
    _Atomic uint64_t busy[BUSY_SLOTS]; /* hashes of positions a thread is searching */
    int result; /* 1 win, 0 loss, -1 none yet */
    pips_move best; /* with result: the root's winning move */
    pthread_mutex_t result_lock;
    const pips_solve_opts *so;
    int threads;
    int lookahead_plies;
    int local_from; /* positions with this many pieces placed use the local tables */
    size_t local_entries; /* in each worker's local table, a power of two */
    unsigned live_limit;
    _Atomic int limit;  /* the budget that stopped the search, 0 for none */
    double next_report; /* seconds */
    uint64_t far[SOLVE_MAX_CELLS]; /* cells neither c nor next to c */
    double start;
} solver;

typedef struct key {
    uint64_t w[KEY_WORDS];
} key;

typedef struct child {
    key k;
    uint64_t hash;
    pips_move move;
    unsigned replies;
    bool deferred;
    bool keyed; /* prepared: lost is known, and k and hash are set unless lost */
    bool lost;  /* normal play: the opponent can end the game at once */
} child;

/* Per-thread search buffers, one row per ply, kept off the stack. */
typedef struct worker {
    solver *sv;
    int id;
    nim_state root;
    uint64_t nodes;       /* not yet added to the solver's count */
    uint64_t total_nodes; /* visited by this worker */
    pips_move best;       /* the root's winning move, once found */
    tt_entry *local;      /* sv->local_entries: positions near the end (bucket_for) */
    uint64_t local_filled; /* entries of local filled */
    struct move_jobs *jobs; /* solve_each_move's shared list */
    pips_move moves[MAX_DEPTH][SOLVE_MAX_CELLS * SOLVE_MAX_PIECES * NIM_ORIENTS + 16];
    child kids[MAX_DEPTH][SOLVE_MAX_CELLS * SOLVE_MAX_PIECES * NIM_ORIENTS];
} worker;

enum { V_LOSS = 0, V_WIN = 1, V_ABORT = 2 };
enum { LIMIT_TIME = 1, LIMIT_NODES, LIMIT_MEMORY };

/* ---- canonical keys ---------------------------------------------------------- */

static int key_cmp(const key *a, const key *b)
{
    for (int i = 0; i < KEY_WORDS; i++)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* The key, for a fixed reading order, is compared in two parts: w[0] holds
 * the shape (which sizes each cell's tree has, 3 bits a cell), which needs
 * no renaming, and w[1..3] the renamed labels (12 bits a cell: orientation
 * and the colour of each level, 3 bits each; with tree_orientation=free 18
 * bits, an orientation and a colour a level, 3 cells a word). Only the
 * reading orders with the least shape are renamed and compared. */
static void canonical_key_syms(const nim_config *cf, const nim_state *s, int n_syms, key *out)
{
    int n = cf->cells;
    uint64_t shape_of[SOLVE_MAX_CELLS];
    for (int c = 0; c < n; c++) {
        unsigned sh = 0;
        for (int l = 0; l < s->height[c]; l++)
            sh |= 1u << ((s->slot[c][l] - 1) % 3);
        shape_of[c] = sh;
    }
    uint64_t shape[NIM_MAX_SYMS], least = UINT64_MAX;
    for (int t = 0; t < n_syms; t++) {
        uint64_t v = 0;
        for (int c = 0; c < n; c++)
            v |= shape_of[c] << (3 * cf->sym[t][c]);
        shape[t] = v;
        if (v < least)
            least = v;
    }
    key best = {{UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX}};
    for (int t = 0; t < n_syms; t++) {
        if (shape[t] != least)
            continue;
        uint8_t at[SOLVE_MAX_CELLS]; /* reading position -> source cell */
        for (int c = 0; c < n; c++)
            at[cf->sym[t][c]] = (uint8_t)c;
        int8_t colour_map[SOLVE_MAX_COLOURS], orient_map[NIM_ORIENTS];
        memset(colour_map, -1, sizeof colour_map);
        memset(orient_map, -1, sizeof orient_map);
        int next_colour = 0, next_orient = 0;
        key k = {{least, 0, 0, 0}};
        for (int j = 0; j < n && cf->free_orient; j++) {
            int c = at[j], h = s->height[c];
            uint64_t code = 0; /* free trees: orientation and colour of each level */
            for (int l = 0; l < h; l++) {
                int o = s->lorient[c][l], col = (s->slot[c][l] - 1) / 3;
                if (orient_map[o] < 0)
                    orient_map[o] = (int8_t)next_orient++;
                if (colour_map[col] < 0)
                    colour_map[col] = (int8_t)next_colour++;
                code |= ((uint64_t)orient_map[o] | (uint64_t)colour_map[col] << 3) << (6 * l);
            }
            k.w[1 + j / FREE_CELLS_PER_WORD] |= code << (18 * (j % FREE_CELLS_PER_WORD));
        }
        /* Shared trees, without branches (the renaming's branches were the
         * solver's worst mispredictions, measured): a name is 4 bits of
         * cmap (colours) or omap (orientations), given in order of first
         * appearance; an empty level or cell adds nothing. */
        uint64_t cmap = 0, omap = 0;
        unsigned cseen = 0, oseen = 0, cnext = 0, onext = 0;
        for (int j = 0; j < n && !cf->free_orient; j++) {
            int c = at[j];
            unsigned h = s->height[c], occupied = h != 0, o = s->orient[c];
            unsigned onew = (~oseen >> o) & occupied;
            omap |= (uint64_t)(onext & (0u - onew)) << (4 * o);
            onext += onew;
            oseen |= occupied << o;
            uint64_t code = (omap >> (4 * o)) & 15;
            for (unsigned l = 0; l < 3; l++) {
                unsigned valid = l < h, slot = s->slot[c][l];
                unsigned col = (slot + 2) / 3 - valid; /* (slot - 1) / 3; 0 when empty */
                unsigned cnew = (~cseen >> col) & valid;
                cmap |= (uint64_t)(cnext & (0u - cnew)) << (4 * col);
                cnext += cnew;
                cseen |= valid << col;
                code |= ((cmap >> (4 * col)) & 15 & (0u - (uint64_t)valid)) << (3 + 3 * l);
            }
            code &= 0u - (uint64_t)occupied;
            k.w[1 + j / CELLS_PER_WORD] |= code << (12 * (j % CELLS_PER_WORD));
        }
        if (key_cmp(&k, &best) < 0)
            best = k;
    }
    *out = best;
}

static void canonical_key(const nim_config *cf, const nim_state *s, key *out)
{
    canonical_key_syms(cf, s, cf->n_syms, out);
}

static uint64_t key_hash(const key *k)
{
    uint64_t h = k->w[0] * 0x9E3779B97F4A7C15ull;
    h ^= pips_mix64(k->w[1] + 0x632BE59BD9B4E019ull);
    h ^= pips_mix64(k->w[2] ^ (h >> 29));
    h ^= pips_mix64(k->w[3] + h);
    return pips_mix64(h);
}

/* ---- the table ----------------------------------------------------------------- */

/* A shared entry's lock stripe depends on its hash alone, not on the
 * table's size, so it stays the same when the table grows. */
static size_t stripe_of(uint64_t h) { return (size_t)(h >> 40) % LOCK_STRIPES; }

static void lock(solver *sv, size_t stripe)
{
    atomic_flag *f = &sv->locks[stripe];
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        ;
}

static void unlock(solver *sv, size_t stripe)
{
    atomic_flag_clear_explicit(&sv->locks[stripe], memory_order_release);
}

/* The high bits of k[0] (above the shapes) hold the entry's flags and the
 * work it cost, log2 of the nodes searched under it. */
#define ENTRY_FLAGS (ENTRY_USED | ENTRY_WIN | ENTRY_WORK)
#define ENTRY_WORK (63ull << WORK_SHIFT)
#define WORK_SHIFT 56

static bool same_key(const tt_entry *e, const key *k)
{
    return (e->k[0] & ~ENTRY_FLAGS) == k->w[0] && e->k[1] == k->w[1] && e->k[2] == k->w[2] &&
           e->k[3] == k->w[3] && (e->k[0] & ENTRY_USED);
}

/* Where the entry of a position with `placed` pieces on the board lives:
 * positions near the end of the game (at least sv->local_from placed) root
 * small subtrees, so they go to the worker's own small table, which stays
 * in cache and takes no lock; the rest to the shared table. Sets *shared. */
static tt_entry *bucket_for(const worker *w, int placed, uint64_t h, bool *shared)
{
    const solver *sv = w->sv;
    *shared = placed < sv->local_from;
    if (!*shared)
        return &w->local[(size_t)h & (sv->local_entries - 1) & ~(size_t)(BUCKET - 1)];
    tt_entry *table = atomic_load_explicit(&sv->table, memory_order_relaxed);
    size_t mask = atomic_load_explicit(&sv->mask, memory_order_relaxed);
    return &table[(size_t)h & mask & ~(size_t)(BUCKET - 1)];
}

/* Doubles the shared table (one thread at a time; the others wait at
 * their stripe), unless it is at its budget or the memory cannot be had,
 * in which case it stays and fills up. Entries move to their new buckets;
 * one that finds its bucket full (rare at half fill) is dropped. */
static void grow_table(solver *sv)
{
    size_t old_n = atomic_load_explicit(&sv->mask, memory_order_relaxed) + 1;
    if (old_n * 2 > sv->max_entries || atomic_flag_test_and_set(&sv->growing))
        return;
    for (size_t i = 0; i < LOCK_STRIPES; i++)
        lock(sv, i);
    tt_entry *old = atomic_load_explicit(&sv->table, memory_order_relaxed);
    size_t n = atomic_load_explicit(&sv->mask, memory_order_relaxed) + 1;
    tt_entry *bigger = n == old_n ? pips_tt_alloc(sv->alloc, 2 * n * sizeof(tt_entry)) : NULL;
    if (bigger) {
        uint64_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            const tt_entry *e = &old[i];
            if (!(e->k[0] & ENTRY_USED))
                continue;
            key k = {{e->k[0] & ~ENTRY_FLAGS, e->k[1], e->k[2], e->k[3]}};
            tt_entry *b = &bigger[(size_t)key_hash(&k) & (2 * n - 1) & ~(size_t)(BUCKET - 1)];
            for (int j = 0; j < BUCKET; j++)
                if (!(b[j].k[0] & ENTRY_USED)) {
                    b[j] = *e;
                    kept++;
                    break;
                }
        }
        atomic_store_explicit(&sv->table, bigger, memory_order_relaxed);
        atomic_store_explicit(&sv->mask, 2 * n - 1, memory_order_relaxed);
        atomic_store_explicit(&sv->stored, kept, memory_order_relaxed);
        atomic_store_explicit(&sv->replaced, 0, memory_order_relaxed);
        pips_tt_free(sv->alloc, old, n * sizeof(tt_entry));
    } else if (n == old_n) {
        sv->max_entries = n; /* no memory for more: fill this one */
    }
    for (size_t i = LOCK_STRIPES; i-- > 0;)
        unlock(sv, i);
    atomic_flag_clear(&sv->growing);
}

/* V_WIN, V_LOSS, or -1 when unknown. */
static int tt_probe(worker *w, int placed, const key *k, uint64_t h)
{
    bool shared = placed < w->sv->local_from;
    if (shared)
        lock(w->sv, stripe_of(h)); /* before reading the table: it may grow */
    const tt_entry *bucket = bucket_for(w, placed, h, &shared);
    int v = -1;
    for (int i = 0; i < BUCKET; i++) {
        const tt_entry *e = &bucket[i];
        if (same_key(e, k)) {
            v = (e->k[0] & ENTRY_WIN) ? V_WIN : V_LOSS;
            break;
        }
    }
    if (shared)
        unlock(w->sv, stripe_of(h));
    return v;
}

/* Stores k's value; a full bucket gives up its entry that cost the least
 * work (ties: the first), so the costliest results stay. */
static void tt_store(worker *w, int placed, const key *k, uint64_t h, int v, unsigned work)
{
    solver *sv = w->sv;
    bool shared = placed < sv->local_from;
    if (shared)
        lock(sv, stripe_of(h)); /* before reading the table: it may grow */
    tt_entry *bucket = bucket_for(w, placed, h, &shared);
    int slot = -1, cheapest = 0;
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < BUCKET && slot < 0; i++) {
        const tt_entry *e = &bucket[i];
        if (!(e->k[0] & ENTRY_USED) || same_key(e, k))
            slot = i;
        else if ((e->k[0] & ENTRY_WORK) < least) {
            least = e->k[0] & ENTRY_WORK;
            cheapest = i;
        }
    }
    bool fresh = slot >= 0 && !(bucket[slot].k[0] & ENTRY_USED);
    bool replaced = slot < 0;
    if (slot < 0)
        slot = cheapest;
    tt_entry *e = &bucket[slot];
    e->k[0] = k->w[0] | ENTRY_USED | (v == V_WIN ? ENTRY_WIN : 0) |
              (uint64_t)(work > 63 ? 63 : work) << WORK_SHIFT;
    e->k[1] = k->w[1];
    e->k[2] = k->w[2];
    e->k[3] = k->w[3];
    if (!shared) {
        w->local_filled += fresh; /* a cache: its replacements are not counted */
        return;
    }
    unlock(sv, stripe_of(h));
    if (replaced)
        atomic_fetch_add_explicit(&sv->replaced, 1, memory_order_relaxed);
    if (fresh && atomic_fetch_add_explicit(&sv->stored, 1, memory_order_relaxed) + 1 >
                     (atomic_load_explicit(&sv->mask, memory_order_relaxed) + 1) / 2)
        grow_table(sv);
}

/* ---- search ---------------------------------------------------------------------- */

/* Sorts (replies << 32 | move) words: the children fewest replies first,
 * ties by move. Insertion sort, as lists are short (qsort of the child
 * records cost 9% of the solve, measured). */
static void sort_words(uint64_t *w, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t x = w[i];
        size_t j = i;
        for (; j > 0 && w[j - 1] > x; j--)
            w[j] = w[j - 1];
        w[j] = x;
    }
}

/* Adds this worker's nodes to the count, stops every worker when a budget
 * runs out, and (worker 0) reports progress about once a second. */
static void report_progress(worker *w)
{
    solver *sv = w->sv;
    uint64_t nodes = atomic_fetch_add_explicit(&sv->nodes, w->nodes, memory_order_relaxed) +
                     w->nodes;
    w->nodes = 0;
    double t = pips_now() - sv->start;
    uint64_t stored = atomic_load_explicit(&sv->stored, memory_order_relaxed);
    int limit = 0;
    if (sv->so->max_seconds > 0 && t > sv->so->max_seconds)
        limit = LIMIT_TIME;
    else if (sv->so->max_nodes && nodes > sv->so->max_nodes)
        limit = LIMIT_NODES;
    else if (atomic_load_explicit(&sv->mask, memory_order_relaxed) + 1 >= sv->max_entries &&
             atomic_load_explicit(&sv->replaced, memory_order_relaxed) > sv->max_entries)
        limit = LIMIT_MEMORY; /* full size, and has thrown away as many results as it holds */
    if (limit) {
        sv->limit = limit;
        atomic_store(&sv->stop, true);
    }
    if (w->id == 0 && sv->so->progress && t >= sv->next_report) {
        sv->next_report = t + 1.0;
        size_t n = atomic_load_explicit(&sv->mask, memory_order_relaxed) + 1;
        pips_solve_progress p = {stored, nodes, t, (double)stored / (double)n,
                                 n * sizeof(tt_entry)};
        sv->so->progress(sv->so->progress_ud, &p);
    }
}

/* The colours and orientations on the board: a node computes them once and
 * its children add the placed piece's. */
typedef struct presence {
    unsigned colours, orients;
} presence;

static presence presence_of(const nim_state *s)
{
    presence p = {0, 0};
    for (uint64_t m = s->occ[0]; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        for (int l = 0; l < s->height[c]; l++) { /* lorient: free trees too */
            p.orients |= 1u << s->lorient[c][l];
            p.colours |= 1u << ((s->slot[c][l] - 1) / 3);
        }
    }
    return p;
}

static presence presence_after(presence p, pips_move m)
{
    p.colours |= 1u << (nim_move_piece(m) / 3);
    p.orients |= 1u << nim_move_orient(m);
    return p;
}

/* The placements worth trying: colours absent from the board are
 * interchangeable (each still has every piece in the store), and so are
 * orientations absent from it, so only the first of each is kept. */
static void distinct_masks(const nim_config *cf, presence p, unsigned *keep_pieces,
                           unsigned *keep_orients)
{
    unsigned absent_c = ((1u << cf->colours) - 1) & ~p.colours;
    unsigned absent_o = 31u & ~p.orients;
    unsigned keep_c = p.colours | (absent_c & (0u - absent_c));
    unsigned keep_p = 0;
    for (; keep_c; keep_c &= keep_c - 1)
        keep_p |= 7u << (3 * __builtin_ctz(keep_c));
    *keep_pieces = keep_p;
    *keep_orients = p.orients | (absent_o & (0u - absent_o));
}

/* The pieces and orientations each cell offers the player to move (every
 * placement, before distinct_masks), with the pieces of a cell that offers
 * no orientation cleared. A node's follow from its parent's: a placement on
 * cell x at level h changes the options of x and of the neighbours of x
 * whose next piece also goes to level h, and takes a piece off every other
 * cell when it used the last copy; only those few cells are worked out
 * again (this replaced three full scans of the board per child). */
typedef struct cell_opts {
    unsigned pieces[SOLVE_MAX_CELLS], orients[SOLVE_MAX_CELLS];
} cell_opts;

static void set_cell_opts(const nim_config *cf, const nim_state *s, int c, unsigned avail,
                          cell_opts *o)
{
    unsigned pm = 0, om = 0;
    if (!nim_cell_options(cf, s, c, avail, &pm, &om) || !om)
        pm = 0;
    o->pieces[c] = pm;
    o->orients[c] = pm ? om : 0;
}

static void opts_of(const nim_config *cf, const nim_state *s, cell_opts *o)
{
    for (int c = 0; c < cf->cells; c++)
        set_cell_opts(cf, s, c, nim_avail(s), o);
}

/* The cells whose options the placement m, just made in s, changed. */
static uint64_t touched_by(const nim_config *cf, const nim_state *s, pips_move m)
{
    int x = nim_move_cell(m), h = s->height[x] - 1;
    uint64_t t = 1ull << x;
    for (uint64_t nb = cf->adj[x]; nb; nb &= nb - 1)
        if (s->height[__builtin_ctzll(nb)] == h)
            t |= nb & (0 - nb);
    return t;
}

/* The options in s, where m has just been placed, from `before`, the
 * options before it. */
static void opts_after(const nim_config *cf, const nim_state *s, const cell_opts *before,
                       pips_move m, cell_opts *o)
{
    unsigned avail = nim_avail(s), kept = avail | ~(1u << nim_move_piece(m));
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm = before->pieces[c] & kept;
        o->pieces[c] = pm;
        o->orients[c] = pm ? before->orients[c] : 0;
    }
    for (uint64_t t = touched_by(cf, s, m); t; t &= t - 1)
        set_cell_opts(cf, s, __builtin_ctzll(t), avail, o);
}

/* Does s, where m has just been placed, offer the player to move any
 * placement? `before` holds the options before m. */
static bool any_move_after(const nim_config *cf, const nim_state *s, const cell_opts *before,
                           pips_move m)
{
    unsigned avail = nim_avail(s), kept = avail | ~(1u << nim_move_piece(m));
    uint64_t t = touched_by(cf, s, m);
    for (int c = 0; c < cf->cells; c++)
        if (!(t >> c & 1) && (before->pieces[c] & kept))
            return true;
    for (; t; t &= t - 1) {
        unsigned pm, om;
        if (nim_cell_options(cf, s, __builtin_ctzll(t), avail, &pm, &om) && pm && om)
            return true;
    }
    return false;
}

static size_t generate_distinct(const nim_config *cf, presence pr, const cell_opts *o,
                                pips_move *out)
{
    unsigned keep_p, keep_o;
    distinct_masks(cf, pr, &keep_p, &keep_o);
    size_t n = 0;
    for (int c = 0; c < cf->cells; c++) {
        unsigned pm = o->pieces[c] & keep_p, om = o->orients[c] & keep_o;
        if (!pm)
            continue;
        for (unsigned ob = om; ob; ob &= ob - 1)
            for (unsigned pb = pm; pb; pb &= pb - 1)
                out[n++] = nim_make_move(c, __builtin_ctz(ob), __builtin_ctz(pb));
    }
    return n;
}

/* How many distinct placements the options offer (generate_distinct's count). */
static unsigned count_distinct(const nim_config *cf, presence pr, const cell_opts *o)
{
    unsigned keep_p, keep_o, n = 0;
    distinct_masks(cf, pr, &keep_p, &keep_o);
    for (int c = 0; c < cf->cells; c++)
        n += nim_popcount(o->pieces[c] & keep_p) * nim_popcount(o->orients[c] & keep_o);
    return n;
}

/* Which placements of the player to move in s leave the next player
 * without one. A placement on cell x with piece p changes only cell x and
 * the store of p, so the options of any cell y that is neither x nor a
 * neighbour of x stay, less p when its last copy went. When those far
 * cells offer two pieces or more, no placement on x can be the last; only
 * the few placements left are played out. far[x]: the pieces placeable
 * away from x. */
static void far_pieces(const solver *sv, const cell_opts *o, unsigned *far)
{
    for (int x = 0; x < sv->cf->cells; x++) {
        unsigned u = 0;
        for (uint64_t f = sv->far[x]; f; f &= f - 1)
            u |= o->pieces[__builtin_ctzll(f)];
        far[x] = u;
    }
}

/* Does placing piece p on cell x with orientation or in s leave the next
 * player a placement? Exact. */
static bool leaves_a_move(const solver *sv, nim_state *s, const cell_opts *o,
                          const unsigned *far, int x, int or, int p)
{
    unsigned last = s->store[p] == 1 ? 1u << p : 0;
    if (far[x] & ~last)
        return true;
    pips_move m = nim_make_move(x, or, p);
    nim_place(sv->cf, s, m);
    bool any = any_move_after(sv->cf, s, o, m);
    nim_unplace(sv->cf, s, m);
    return any;
}

/* How many distinct placements (generate_distinct's) of the player to
 * move in s, whose options are o, leave the next player a placement. */
static unsigned live_moves(const solver *sv, nim_state *s, presence pr, const cell_opts *o)
{
    unsigned far[SOLVE_MAX_CELLS];
    far_pieces(sv, o, far);
    unsigned keep_p, keep_o, live = 0;
    distinct_masks(sv->cf, pr, &keep_p, &keep_o);
    for (int x = 0; x < sv->cf->cells; x++) {
        unsigned pm = o->pieces[x] & keep_p, om = o->orients[x] & keep_o;
        if (!pm)
            continue;
        unsigned n_o = nim_popcount(om);
        if (nim_popcount(far[x]) >= 2) {
            live += nim_popcount(pm) * n_o;
            continue;
        }
        for (unsigned pb = pm; pb; pb &= pb - 1)
            for (unsigned ob = om; ob; ob &= ob - 1)
                live += leaves_a_move(sv, s, o, far, x, __builtin_ctz(ob), __builtin_ctz(pb));
    }
    return live;
}

/* Can the player to move in s, whose options are o, place so that the
 * next player has none? */
static bool can_end_now(const solver *sv, nim_state *s, const cell_opts *o)
{
    unsigned far[SOLVE_MAX_CELLS];
    far_pieces(sv, o, far);
    for (int x = 0; x < sv->cf->cells; x++) {
        unsigned pm = o->pieces[x], om = o->orients[x];
        if (!pm || nim_popcount(far[x]) >= 2)
            continue;
        for (unsigned pb = pm; pb; pb &= pb - 1)
            for (unsigned ob = om; ob; ob &= ob - 1)
                if (!leaves_a_move(sv, s, o, far, x, __builtin_ctz(ob), __builtin_ctz(pb)))
                    return true;
    }
    return false;
}

/* Normal play: how many placements of the player to move in s (options o)
 * leave the next player no placement that ends the game at once. */
static unsigned safe_replies(worker *w, nim_state *s, presence pr, int ply, const cell_opts *o)
{
    const nim_config *cf = w->sv->cf;
    pips_move *moves = w->moves[ply];
    size_t n = generate_distinct(cf, pr, o, moves);
    unsigned safe = 0;
    for (size_t i = 0; i < n; i++) {
        cell_opts next;
        nim_place(cf, s, moves[i]);
        opts_after(cf, s, o, moves[i], &next);
        safe += !can_end_now(w->sv, s, &next);
        nim_unplace(cf, s, moves[i]);
    }
    return safe;
}

static unsigned work_bits(uint64_t nodes)
{
    unsigned b = 0;
    while (nodes > 1 && b < 63) {
        nodes >>= 1;
        b++;
    }
    return b;
}

/* Prepares the child kc of s: in normal play a child from which the
 * opponent can leave us without a move is theirs (lost, two plies ahead);
 * otherwise its key is set and its bucket starts coming into the cache. */
static void prepare_child(const worker *w, nim_state *s, const cell_opts *o, child *kc)
{
    const solver *sv = w->sv;
    nim_place(sv->cf, s, kc->move);
    if (!sv->misere) {
        cell_opts kid;
        opts_after(sv->cf, s, o, kc->move, &kid);
        kc->lost = can_end_now(sv, s, &kid);
    } else {
        kc->lost = false;
    }
    if (!kc->lost) {
        /* A local position's key renames colours and orientations but skips
         * the board's turns: cheaper, and few of them meet turned (measured:
         * 4% faster on 2x4 colors=5, 0.4% more nodes). */
        canonical_key_syms(sv->cf, s, s->placed >= sv->local_from ? 1 : sv->cf->n_syms, &kc->k);
        kc->hash = key_hash(&kc->k);
        bool shared;
        const tt_entry *bucket = bucket_for(w, s->placed, kc->hash, &shared);
        __builtin_prefetch(bucket); /* a bucket spans two cache lines */
        __builtin_prefetch((const char *)bucket + 64);
    }
    nim_unplace(sv->cf, s, kc->move);
    kc->keyed = true;
}

/* Value for the player to move in s, whose canonical key is k. */
static int search(worker *w, nim_state *s, presence pr, const cell_opts *o, const key *k,
                  uint64_t h, int ply)
{
    solver *sv = w->sv;
    const nim_config *cf = sv->cf;
    if (atomic_load_explicit(&sv->stop, memory_order_relaxed))
        return V_ABORT;
    uint64_t nodes_before = w->total_nodes;
    w->total_nodes++;
    if ((++w->nodes & 0x3FF) == 0)
        report_progress(w);
    pips_move *moves = w->moves[ply];
    size_t n = generate_distinct(cf, pr, o, moves);
    if (n == 0)
        return sv->misere ? V_WIN : V_LOSS; /* NIM-R5 */
    /* Order the children by the opponent's mobility, fewest first; a child
     * with no reply decides at once. */
    child *kids = w->kids[ply];
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        nim_place(cf, s, moves[i]);
        presence kid_pr = presence_after(pr, moves[i]);
        cell_opts kid;
        opts_after(cf, s, o, moves[i], &kid);
        unsigned replies = count_distinct(cf, kid_pr, &kid);
        bool look = ply < sv->lookahead_plies && replies && replies <= sv->live_limit;
        if (look && sv->misere) {
            /* order by the replies that do not hand us the win; none
             * left: every reply leaves us stuck, and we win (NIM-R5) */
            replies = live_moves(sv, s, kid_pr, &kid);
            if (replies == 0) {
                nim_unplace(cf, s, moves[i]);
                w->best = ply == 0 ? moves[i] : w->best;
                return V_WIN; /* not stored: cheaper to find again (measured) */
            }
        } else if (look) {
            /* a child where the opponent can leave us stuck is theirs;
             * order the rest by the replies that let us not end it at once,
             * none left: the child is ours */
            if (can_end_now(sv, s, &kid)) {
                nim_unplace(cf, s, moves[i]);
                continue;
            }
            replies = safe_replies(w, s, kid_pr, ply + 1, &kid);
            if (replies == 0) {
                nim_unplace(cf, s, moves[i]);
                w->best = ply == 0 ? moves[i] : w->best;
                return V_WIN; /* not stored: cheaper to find again (measured) */
            }
        }
        nim_unplace(cf, s, moves[i]);
        if (replies == 0) { /* the opponent is stuck (NIM-R5) */
            if (sv->misere)
                continue; /* a win for them: never the move to make */
            w->best = ply == 0 ? moves[i] : w->best;
            return V_WIN; /* not stored: cheaper to find again (measured) */
        }
        moves[nk++] = (uint64_t)replies << 32 | moves[i]; /* i >= nk: read already */
    }
    sort_words(moves, nk);
    for (size_t j = 0; j < nk; j++) {
        kids[j].move = moves[j] & UINT32_MAX;
        kids[j].replies = (unsigned)(moves[j] >> 32);
        kids[j].deferred = false;
        kids[j].keyed = false;
    }
    /* Near the root a child another thread is searching is put off to a
     * second pass (by then usually in the table), so threads spread over
     * the tree instead of repeating each other. Only the order changes. */
    bool shared = ply < SHARED_PLIES && sv->threads > 1;
    int result = V_LOSS;
    /* Where the children are shared positions, first look all of them up:
     * one the table already knows lost wins at once, before any child is
     * searched (measured: 11-13% fewer nodes on 2x4 colors=5 and 2x5
     * colors=4, 21% fewer and 14-21% less time on 2x4 colors=5 misere; also
     * looking up local children saved little more and cost time). */
    if (s->placed + 1 < sv->local_from)
        for (size_t j = 0; j < nk; j++) {
            child *kc = &kids[j];
            if (!kc->keyed)
                prepare_child(w, s, o, kc);
            if (kc->lost)
                continue;
            nim_place(cf, s, kc->move);
            int v = tt_probe(w, s->placed, &kc->k, kc->hash);
            nim_unplace(cf, s, kc->move);
            if (v == V_LOSS) {
                w->best = ply == 0 ? kc->move : w->best;
                tt_store(w, s->placed, k, h, V_WIN, work_bits(w->total_nodes - nodes_before));
                return V_WIN;
            }
        }
    for (int pass = 0; pass < (shared ? 2 : 1) && result == V_LOSS; pass++)
        for (size_t j = 0; j < nk; j++) {
            child *kc = &kids[j];
            if (pass == 1 && !kc->deferred)
                continue;
            kc->deferred = false;
            /* The next child is prepared (checked, keyed, its bucket
             * fetched) while this one is probed: probes are mostly cache
             * misses. */
            if (!kc->keyed)
                prepare_child(w, s, o, kc);
            if (j + 1 < nk && !kids[j + 1].keyed)
                prepare_child(w, s, o, &kids[j + 1]);
            if (kc->lost)
                continue;
            nim_place(cf, s, kc->move);
            _Atomic uint64_t *slot = &sv->busy[kc->hash % BUSY_SLOTS];
            uint64_t mark = kc->hash | 1; /* never 0, the free mark */
            if (shared && pass == 0 && atomic_load_explicit(slot, memory_order_relaxed) == mark) {
                nim_unplace(cf, s, kc->move);
                kc->deferred = true;
                continue;
            }
            int v = tt_probe(w, s->placed, &kc->k, kc->hash);
            if (v < 0) {
                uint64_t free_mark = 0;
                bool marked = shared && atomic_compare_exchange_strong(slot, &free_mark, mark);
                cell_opts kid;
                opts_after(cf, s, o, kc->move, &kid);
                v = search(w, s, presence_after(pr, kc->move), &kid, &kc->k, kc->hash, ply + 1);
                if (marked)
                    atomic_store(slot, 0);
            }
            nim_unplace(cf, s, kc->move);
            if (v == V_ABORT)
                return V_ABORT;
            if (v == V_LOSS) {
                result = V_WIN;
                w->best = ply == 0 ? kc->move : w->best;
                break;
            }
        }
    tt_store(w, s->placed, k, h, result, work_bits(w->total_nodes - nodes_before));
    return result;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    solver *sv = w->sv;
    key k;
    canonical_key(sv->cf, &w->root, &k);
    cell_opts o;
    opts_of(sv->cf, &w->root, &o);
    int v = search(w, &w->root, presence_of(&w->root), &o, &k, key_hash(&k), 0);
    if (v != V_ABORT) {
        pthread_mutex_lock(&sv->result_lock);
        if (sv->result < 0) {
            sv->result = v;
            sv->best = v == V_WIN ? w->best : PIPS_MOVE_NONE;
        }
        pthread_mutex_unlock(&sv->result_lock);
        atomic_store(&sv->stop, true);
    }
    atomic_fetch_add_explicit(&sv->nodes, w->nodes, memory_order_relaxed);
    w->nodes = 0;
    return NULL;
}

/* Every legal move of the root, solved after the root itself with the
 * table it filled: the moves are keyed by the position they lead to, each
 * distinct position is solved once (turned and renamed moves share it), and
 * the workers take the positions in turn. */
typedef struct move_jobs {
    const pips_solve_opts *so;
    size_t n;
    uint16_t *first;          /* per move: the first move leading to the same position */
    int8_t *theirs;           /* per distinct position: V_WIN, V_LOSS or V_ABORT */
    _Atomic size_t next;      /* the next move to take */
} move_jobs;

/* The value for the opponent of the position after move m from s. */
static int solve_after(worker *w, nim_state *s, pips_move m)
{
    const nim_config *cf = w->sv->cf;
    nim_place(cf, s, m);
    int theirs;
    if (!nim_any_move(cf, s)) {
        theirs = w->sv->misere ? V_WIN : V_LOSS; /* NIM-R5 */
    } else {
        key k;
        canonical_key(cf, s, &k);
        uint64_t h = key_hash(&k);
        theirs = tt_probe(w, s->placed, &k, h);
        if (theirs < 0) {
            cell_opts o;
            opts_of(cf, s, &o);
            theirs = search(w, s, presence_of(s), &o, &k, h, 1);
        }
    }
    nim_unplace(cf, s, m);
    return theirs;
}

static void *each_move_main(void *arg)
{
    worker *w = arg;
    move_jobs *jobs = w->jobs;
    for (;;) {
        size_t i = atomic_fetch_add(&jobs->next, 1);
        if (i >= jobs->n)
            break;
        if (jobs->first[i] == i)
            jobs->theirs[i] = (int8_t)solve_after(w, &w->root, jobs->so->moves[i]);
    }
    atomic_fetch_add_explicit(&w->sv->nodes, w->nodes, memory_order_relaxed);
    w->nodes = 0;
    return NULL;
}

/* The value of each legal move for the player to move at the root (normal
 * play: a move leaving the opponent stuck wins; misere: loses). */
static bool solve_each_move(solver *sv, worker *ws, pthread_t *tids, int threads,
                            const pips_allocator *alloc, size_t *n_out)
{
    const nim_config *cf = sv->cf;
    const pips_solve_opts *so = sv->so;
    nim_state *s = &ws[0].root;
    size_t n = nim_generate(cf, s, so->moves);
    move_jobs jobs = {so, n, pips_calloc(alloc, n + 1, sizeof *jobs.first),
                      pips_calloc(alloc, n + 1, sizeof *jobs.theirs), 0};
    key *keys = pips_calloc(alloc, n + 1, sizeof *keys);
    bool ok = jobs.first && jobs.theirs && keys;
    for (size_t i = 0; ok && i < n; i++) {
        nim_place(cf, s, so->moves[i]);
        canonical_key(cf, s, &keys[i]);
        nim_unplace(cf, s, so->moves[i]);
        size_t j = 0;
        while (key_cmp(&keys[j], &keys[i]) != 0)
            j++;
        jobs.first[i] = (uint16_t)j;
    }
    int started = 0;
    for (int i = 0; ok && i < threads; i++) {
        ws[i].jobs = &jobs;
        if (i == 0 || pthread_create(&tids[i], NULL, each_move_main, &ws[i]) == 0)
            started = i + 1;
        else
            break;
    }
    if (ok)
        each_move_main(&ws[0]); /* the calling thread is worker 0 */
    for (int i = 1; i < started; i++)
        pthread_join(tids[i], NULL);
    for (size_t i = 0; ok && i < n; i++) {
        int theirs = jobs.theirs[jobs.first[i]];
        ok = theirs != V_ABORT;
        so->move_values[i] = theirs == V_WIN ? PIPS_LOSS : PIPS_WIN;
    }
    pips_free(alloc, jobs.first);
    pips_free(alloc, jobs.theirs);
    pips_free(alloc, keys);
    *n_out = ok ? n : 0;
    return ok;
}

bool nim_solve(const pips_game *g, const void *state, const pips_solve_opts *so,
               pips_solve_result *res, pips_error *err)
{
    const nim_config *cf = g->config;
    res->value_known = false;
    if (cf->players != 2)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "nimitz solve: only 2 players can be solved exactly (players=%d); with "
                         "more, a loss for the mover does not make a win for one opponent",
                         cf->players);
    if (cf->cells > SOLVE_MAX_CELLS)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "nimitz solve: boards of up to %d cells only (this one has %d)",
                         SOLVE_MAX_CELLS, cf->cells);
    if (cf->colours > SOLVE_MAX_COLOURS)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "nimitz solve: up to colors=%d only (this game has %d): the position "
                         "key holds 3 bits a colour",
                         SOLVE_MAX_COLOURS, cf->colours);
    /* Free trees (NIM-R3's variant) take 18 bits a cell in the key, not 12. */
    if (cf->free_orient && cf->cells > SOLVE_MAX_FREE_CELLS)
        return pips_fail(err, PIPS_ERR_UNSUPPORTED,
                         "nimitz solve: with tree_orientation=free, boards of up to %d cells "
                         "only (this one has %d): the position key holds an orientation a level",
                         SOLVE_MAX_FREE_CELLS, cf->cells);
    const nim_state *start = state;
    if (start->over)
        return pips_fail(err, PIPS_ERR_ARG, "nimitz solve: the game is over (nothing to solve)");
    pips_solve_opts defaults = {1, 0, NULL, NULL, 0, 0, NULL, NULL};
    res->n_moves = 0;
    if (!so)
        so = &defaults;
    int threads = so->threads > 0 ? so->threads : 1;
    if (threads > 64)
        threads = 64;
    size_t mb = so->table_mb ? so->table_mb : pips_solve_default_mb();
    /* The local tables take at most a quarter of the budget, the shared
     * table the largest power of two of what is left. */
    size_t budget = mb * (size_t)1 << 20, local_entries = BUCKET;
    while (local_entries < LOCAL_ENTRIES &&
           local_entries * 2 * sizeof(tt_entry) * (size_t)threads <= budget / 4)
        local_entries *= 2;
    size_t max_entries = BUCKET;
    while (max_entries * 2 * sizeof(tt_entry) <=
           budget - local_entries * sizeof(tt_entry) * (size_t)threads)
        max_entries *= 2;
    size_t entries = max_entries < FIRST_ENTRIES ? max_entries : FIRST_ENTRIES;
    solver *sv = pips_calloc(g->alloc, 1, sizeof *sv);
    worker *ws = pips_calloc(g->alloc, (size_t)threads, sizeof *ws);
    pthread_t *tids = pips_calloc(g->alloc, (size_t)threads, sizeof *tids);
    bool locals = ws != NULL;
    for (int i = 0; ws && i < threads; i++)
        locals = (ws[i].local = pips_calloc(g->alloc, local_entries, sizeof(tt_entry))) && locals;
    tt_entry *table = sv && ws && tids && locals
                          ? pips_tt_alloc(g->alloc, entries * sizeof(tt_entry))
                          : NULL;
    if (!table) {
        for (int i = 0; ws && i < threads; i++)
            pips_free(g->alloc, ws[i].local);
        pips_free(g->alloc, sv);
        pips_free(g->alloc, ws);
        pips_free(g->alloc, tids);
        return pips_fail(err, PIPS_ERR_NOMEM,
                         "nimitz solve: cannot allocate a table within the memory budget of "
                         "%zu MB",
                         mb);
    }
    sv->cf = cf;
    sv->misere = cf->misere;
    atomic_init(&sv->table, table);
    atomic_init(&sv->mask, entries - 1);
    sv->max_entries = max_entries;
    atomic_flag_clear(&sv->growing);
    sv->alloc = g->alloc;
    for (int i = 0; i < LOCK_STRIPES; i++)
        atomic_flag_clear(&sv->locks[i]);
    atomic_init(&sv->stored, 0);
    atomic_init(&sv->nodes, 0);
    atomic_init(&sv->replaced, 0);
    atomic_init(&sv->stop, false);
    sv->result = -1;
    pthread_mutex_init(&sv->result_lock, NULL);
    sv->so = so;
    sv->threads = threads;
    for (int c = 0; c < cf->cells; c++)
        sv->far[c] = ((1ull << cf->cells) - 1) & ~cf->adj[c] & ~(1ull << c);
    /* Measured on 3x3 colors=4 and 2x4 colors=5 (one thread): in misere,
     * live replies counted at every depth for children with at most 4
     * replies (3x3 colors=4: 345k positions stored without, 55k with, 53k
     * for every child but 15% slower on 2x4 colors=5); in normal play the
     * third ply changed nothing up to 6 plies deep and cost time at 8. */
    sv->lookahead_plies = sv->misere ? MAX_DEPTH : NORMAL_LOOKAHEAD_PLIES;
    sv->live_limit = sv->misere ? MISERE_LIVE_LIMIT : UINT32_MAX;
    /* Measured on the coaster (2 threads): 7 placements left or fewer in the
     * local tables cut the CPU time by a sixth and the shared table's
     * positions from 81M to 1M, at 15% more nodes; on 2x4 colors=5 (one
     * thread) the CPU time fell from 8.7 s to 2.7 s. */
    sv->local_entries = local_entries;
    sv->local_from = 3 * cf->colours * cf->sets - LOCAL_REMAINING;
    for (int i = 0; i < BUSY_SLOTS; i++)
        atomic_init(&sv->busy[i], 0);
    sv->start = pips_now();
    sv->next_report = 1.0;
    int started = 0;
    for (int i = 0; i < threads; i++) {
        ws[i].sv = sv;
        ws[i].id = i;
        ws[i].best = PIPS_MOVE_NONE;
        memcpy(&ws[i].root, start, sizeof *start);
        if (i == 0 || pthread_create(&tids[i], NULL, worker_main, &ws[i]) == 0)
            started = i + 1;
        else
            break;
    }
    worker_main(&ws[0]); /* the calling thread is worker 0 */
    for (int i = 1; i < started; i++)
        pthread_join(tids[i], NULL);
    bool ok = sv->result >= 0;
    res->n_moves = 0;
    if (ok && so->moves && so->move_values) {
        atomic_store(&sv->stop, false);
        ok = solve_each_move(sv, ws, tids, started, g->alloc, &res->n_moves);
        res->value_known = !ok; /* the root's value stands when its moves ran out */
        report_progress(&ws[0]);
    }
    res->value = sv->result == V_WIN ? PIPS_WIN : PIPS_LOSS;
    res->best_move = sv->result == V_WIN ? sv->best : PIPS_MOVE_NONE;
    res->positions = atomic_load(&sv->stored); /* the shared table's and the local ones' */
    for (int i = 0; i < started; i++)
        res->positions += ws[i].local_filled;
    res->nodes = atomic_load(&sv->nodes);
    res->seconds = pips_now() - sv->start;
    entries = atomic_load(&sv->mask) + 1;
    res->memory_bytes = pips_tt_resident(g->alloc, sv->table, entries * sizeof(tt_entry)) +
                        (size_t)threads * (sizeof(worker) + local_entries * sizeof(tt_entry));
    if (!ok) {
        if (sv->limit == LIMIT_TIME)
            pips_fail(err, PIPS_ERR_LIMIT,
                      "nimitz solve: not solved within the time budget of %.3g s (%llu "
                      "positions stored)",
                      so->max_seconds, (unsigned long long)res->positions);
        else if (sv->limit == LIMIT_NODES)
            pips_fail(err, PIPS_ERR_LIMIT,
                      "nimitz solve: not solved within the budget of %llu nodes",
                      (unsigned long long)so->max_nodes);
        else
            pips_fail(err, PIPS_ERR_LIMIT,
                      "nimitz solve: the memory budget of %zu MB is too small: its table of "
                      "%zu positions is full and has replaced as many again (raise it with "
                      "--table-mb)",
                      mb, entries);
    }
    pthread_mutex_destroy(&sv->result_lock);
    pips_tt_free(g->alloc, sv->table, entries * sizeof(tt_entry));
    for (int i = 0; i < threads; i++)
        pips_free(g->alloc, ws[i].local);
    pips_free(g->alloc, sv);
    pips_free(g->alloc, ws);
    pips_free(g->alloc, tids);
    return ok;
}

/* `pips bench` figures for the solver: two small exact solves on one thread. */
void nim_bench_extra(const pips_game *g, pips_str *out)
{
    static const char *const variants[][3] = {
        {"board=3x3", "colors=4", "misere=false"},
        {"board=3x3", "colors=4", "misere=true"},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        pips_error err;
        pips_game *small = pips_game_new(g->def->name, variants[i], 3, g->alloc, &err);
        pips_solve_opts so = {1, 16, NULL, NULL, 0, 0, NULL, NULL};
        pips_solve_result res;
        nim_state start;
        if (small)
            small->def->initial(small, &start);
        if (!small || !nim_solve(small, &start, &so, &res, &err)) {
            pips_str_catf(out, "solve %s %s %s: %s\n", variants[i][0], variants[i][1],
                          variants[i][2], err.msg);
        } else {
            pips_str_catf(out, "solve %s %s %s: %s, %llu positions, %.3f s, %.0f positions/s\n",
                          variants[i][0], variants[i][1], variants[i][2],
                          pips_value_name(res.value), (unsigned long long)res.positions,
                          res.seconds, res.seconds > 0 ? (double)res.positions / res.seconds : 0.0);
        }
        pips_game_free(small);
    }
}

/* ---- the book ------------------------------------------------------------------- */

/* A position of the coaster proven lost for the player to move, given as the
 * moves that reach it from the start. */
typedef struct book_entry {
    bool misere;
    const char *moves[2]; /* NULL past the last */
} book_entry;

/* Generated by scripts/nimitz-book.sh from this solver's results. */
static const book_entry BOOK[] = {
#include "games/nimitz/nimitz_book.inc"
};

/* The book was solved on the coaster: a 3x3 board, 5 colours, one set, two
 * players and shared trees (NIM-R3); normal play and misere each have their
 * own entries. */
static bool book_applies(const nim_config *cf)
{
    return cf->rows == 3 && cf->cols == 3 && cf->cells == 9 && cf->colours == 5 &&
           cf->sets == 1 && cf->players == 2 && !cf->free_orient;
}

/* A position matches an entry when their canonical keys are equal, so one
 * entry stands for every rotation, reflection and renaming of it. An entry
 * that does not replay (none should: tests/test_nimitz_solve.c replays every
 * one) matches nothing. */
bool nim_known_value(const pips_game *g, const void *state, pips_value *v)
{
    const nim_config *cf = g->config;
    const nim_state *s = state;
    if (!book_applies(cf) || s->over || s->placed > 2)
        return false;
    key want;
    canonical_key(cf, s, &want);
    for (size_t i = 0; i < sizeof BOOK / sizeof BOOK[0]; i++) {
        const book_entry *e = &BOOK[i];
        size_t n = e->moves[1] ? 2 : 1;
        if (e->misere != cf->misere || n != s->placed)
            continue;
        nim_state at;
        g->def->initial(g, &at);
        bool replayed = true;
        for (size_t j = 0; j < n && replayed; j++) {
            pips_move m;
            pips_error err;
            replayed = g->def->move_from_text(g, &at, e->moves[j], &m, &err) &&
                       pips_check_move(g, &at, m, &err);
            if (replayed)
                g->def->apply(g, &at, m);
        }
        key k;
        if (!replayed || at.over)
            continue;
        canonical_key(cf, &at, &k);
        if (key_cmp(&k, &want) == 0) {
            *v = PIPS_LOSS;
            return true;
        }
    }
    return false;
}
