/*
 * mcts.c — Monte Carlo tree search (UCT) for any game: N players (each node
 * keeps the summed returns of every seat and a decision node's mover picks
 * by its own mean), chance nodes (an outcome is sampled by probability on
 * every pass), and non-enumerable games (a node's candidate moves are drawn
 * once, when it is expanded, and stay fixed).
 *
 * A tree is an arena of nodes; a node's children are contiguous. A pass
 * descends from the root (unvisited children first, in an order shuffled at
 * expansion; then UCT), stops at the first new node, plays a playout (the
 * game's light playout policy when it has one, pips_policy_playout; uniform
 * with playout=uniform) and adds its returns along the path (or, with
 * leaf=eval, the default when
 * the game has an evaluate hook, adds the hook's values for the new leaf
 * instead of a playout's returns). A node is expanded the second time a
 * pass reaches it, so the tree grows by about one expansion per pass.
 *
 * Root parallelism: threads=T builds T independent trees, each with its own
 * rng drawn in order from the agent's rng and iters/T passes, and sums their
 * root statistics by move, so an iteration budget stays deterministic.
 * Tree reuse: after pips_agent_observe the subtree under the played move is
 * kept (copied into a fresh arena) when the next search starts there.
 * Budget: iters=N or time=T (the clock is read on every pass), or both: the
 * passes stop at N or at the time, whichever comes first (the clock read
 * after every pass), so the search is deterministic unless the time binds.
 * evals=E caps the work instead of the time: the passes stop once the
 * search (the opponents' own searches included) has called the evaluate
 * hook E times (read after every pass, so one pass may overrun it by the
 * children of one expansion and, under opp=search or adapt, by the inner
 * searches it starts, each run whole), a budget that binds the same on
 * any load, so the search stays deterministic; with threads=T each tree gets E/T.
 * Root draws (draws=K, for games whose moves are sampled, such as Noname):
 * the root's children are K samples of the game's candidate generator,
 * merged without repeats, so the agent chooses among more placements than
 * one sample holds while the nodes below keep one sample each; a kept
 * subtree (reuse) would have a one-sample root, so with K > 1 every search
 * starts a fresh tree.
 * Depth cap (treedepth=D): a node D plies below the root is never expanded; each
 * pass that reaches it values it afresh (with settle=1 by a model playout on
 * candidates drawn anew, so where moves are sampled the replies are a fresh
 * sample on every pass instead of the one fixed at a node's expansion).
 * Rollouts (rollout=P): an evaluated leaf (after settle=1's model moves,
 * when set) is first played on P plies in which every seat, the root's
 * too, plays the greedy policy on moves drawn afresh, and valued there: a
 * look several rounds past the tree's edge at the cost of P greedy moves
 * a pass. Re-ranking (rerank=M, reruns=R): after the search, each of the
 * M moves it ranks first is played out R times to the end of the game,
 * every seat greedy, run r of every move from the same rng (common random
 * numbers, so the moves meet alike samples), and the move of the best
 * mean return to the root seat is played (ties to the search's order),
 * unless the search proved its first move a win. rerundraws=K: in those
 * playouts each move is the greedy best of K candidate samples (sampled
 * games); rerunsolo=1: a playout scores 1 for a win alone, 0 otherwise
 * (a shared win counts nothing, as a draw counts in a rung). rerunhalve=1:
 * sequential halving over the M moves: round k plays R * 2^k more runs of
 * each move still in (common seeds), then the better half by summed score
 * stays, until one is left (M * R * ceil(log2 M) playouts for M a power of
 * two), so many of the search's moves are looked at and the best few
 * played out most. rerunopp=N:
 * in each playout the first round of replies (up to the root seat's next
 * turn) is played by searches of N passes, one per replying seat, in which
 * the others follow the greedy policy (hard's shape; rerunoppdraws=K root
 * samples), a model of a field that searches; the rest stays greedy.
 * Progressive widening (widen=A, widen_base=K; for games with many or
 * sampled moves): a decision node with n visits considers only its first
 * ceil(K * (n+1)^A) children, which are sorted best first by the game's
 * order_moves hook (when it has one), so the search spends its passes on
 * the moves the game ranks highest and admits more as the node earns visits.
 *
 * Options for three or more seats (issue 24), each off by default:
 * - order=eval: a decision node's children are valued at expansion by the
 *   evaluate hook for the mover (the child's prior) and unvisited children
 *   are tried best prior first.
 * - opp=greedy|softmax (the opponent model): at a node where a seat other
 *   than the root's moves, the move follows a policy over the priors (the
 *   returns where the move ends the game, else the evaluate hook, else an
 *   even 0.5, as the greedy agent values moves) instead
 *   of that seat's UCT: greedy takes the best prior (ties at random), softmax
 *   samples in proportion to exp(prior / temp). Playouts (leaf=playout)
 *   follow the same policy for those seats. opp=max is plain max^n UCT.
 *   Under the greedy policy a node holds only the children that policy can
 *   play (its ties), and a model playout's greedy moves are kept by position
 *   (mtree.ties): both save work and change no pass (the same picks from the
 *   same rng draws, the same evaluate calls counted).
 * - settle=1 (with an opponent model and evaluate leaves): a new leaf where
 *   another seat moves is first played on by the model's policy (and the
 *   dice) until the root seat moves or the game ends, and valued there, so
 *   every leaf is valued with the same seat to move: evaluations favour the
 *   seat to move, and leaves at mixed seats would rank a move by how deep
 *   its subtree happened to grow.
 * - opp=topk (k=K, default 2): an opponent plays, of its K best children
 *   by prior (ties to the earlier), the one worst for the root seat (UCT on
 *   one minus the root seat's mean): paranoid on the plausible moves.
 * - opp=search (oppiters=N, default 300): in the first round of replies
 *   after the root's move (no root-seat turn between), each opponent plays
 *   the move its own search of N passes chooses, a search in which every
 *   other seat, the root's too, follows the greedy policy (a searcher that
 *   models the others as greedy, as opp=greedy does); later turns follow
 *   the greedy policy. Where moves are sampled (Noname), that search
 *   chooses among the sample the tree drew at the node, so its answer is
 *   one of the node's children. Trees are not kept between moves. oppsettle=1:
 *   those searches settle their leaves (settle=1), as a settle=1 hard does.
 *   oppevals=E: each of them stops at E evaluate calls (a searcher capped
 *   by evals=E, modelled with its own budget). oppruns=K: K of them, each
 *   with a fresh rng, at every such reply node, which then plays each
 *   answer in proportion to the searches that gave it (the one furthest
 *   below its share, as chance=stratify; proven at the weighted mean): a
 *   searcher whose choice varies with its seed is sampled, not guessed.
 * - opp=adapt: opp=search's first-round searches only for the seats seen
 *   (pips_agent_observe, this game) playing a move the greedy policy would
 *   not; the others are modelled greedy, as they have played.
 * - oppsample=K (with opp=search or adapt): a searching seat with more than
 *   K moves is modelled as a search too small to look at them all (as
 *   Nimitz's four-seat hard at the opening, 16 passes over 675 moves): it
 *   plays the best prior of K of its moves drawn at random. In the tree such
 *   a node plays its children in proportion to that chance, C(n-1-r, K-1) /
 *   C(n, K) for the child of rank r by prior (tied priors share it), each
 *   pass the child furthest below its share, and is proven at that
 *   expectation; a model playout draws the K moves and values only those.
 *   Where the seat has K moves or fewer the model is as without it.
 * - exact=N: after the search, the root's moves are solved to the end of
 *   the game under the opponent model of model_solve.c (greedy seats as
 *   greedy, searchers as maximisers that model the others greedy: with
 *   opp=search every other seat, with opp=adapt each seat whose moves so
 *   far are likelier a searcher's than greedy's, model_observe; one whose
 *   moves fit both alike is greedy, or with unknown=search a searcher) in
 *   at most N stored positions; of the moves best
 *   for the root seat there (its chance of a win, then its expected
 *   return) the search's favourite is played. When the solve gives up, the
 *   search's move stands. worst=W (0..1, default 0): the root plays
 *   for 1-W times its chance of a win with a searcher's tied moves equally
 *   likely plus W times that chance with every such tie against it.
 *   pick=K (with opp=adapt or search): where such a tie matters to
 *   the root seat, the searcher plays what its own search of oppiters
 *   passes chooses (opp=search's search), as a search picks among moves it
 *   values alike by its visits; with K > 1, K such searches (each with its
 *   own rng) sample that choice, each answer weighted 1/K. pickply=D
 *   (default 0, no limit): such ties are asked only within D plies of the
 *   root's move (the first round always); deeper, the model's mean stands
 *   (a later move asks them once they are near). pickobs=N (with
 *   opp=adapt): the evidence on whether a seat searches (model_observe)
 *   also asks its own search N times what it plays where it moved.
 * - chance=stratify: a chance node's outcomes are taken in turn instead of
 *   sampled, each pass the one furthest below its share of the node's
 *   passes (probability x passes less its visits; ties to the first
 *   listed), so every outcome is visited in proportion to its probability
 *   and sibling subtrees meet the outcomes in the same order (common random
 *   numbers): the dice add less noise to the comparison of moves.
 * - ph=W: Progressive History (Nijssen & Winands 2011): the selection value
 *   gains W * H(seat, move) / ((1 - mean) * visits + 1), H being the mean
 *   return to the seat of every pass in this search in which it played the
 *   move anywhere in the tree.
 * Symmetries (sym=1, for games with a canonical hook): a tree node where
 * the root seat moves keeps one move of each set whose results are the
 * same position up to the game's symmetries (the first generated; by the
 * hash of the canonical form), so its passes are not spent on equivalent
 * moves (Nimitz's 675 first placements are 9). sym=2: the seats modelled
 * as searchers too (opp=search: every other seat; adapt: those seen
 * searching), in the tree and in model playouts, so their replies cost a
 * value per distinct move; a seat modelled greedy keeps all its moves, as
 * greedy takes the best value of them all, equivalent ones included.
 * Solver ties: a decision node whose best proven children tie for the mover
 * takes their mean (the mover is indifferent among them); with an opponent
 * model a node is proven once the children its policy can pick are, at the
 * policy's expectation.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ai/agent_impl.h"
#include "ai/model_solve.h"

#define MCTS_MAX_THREADS 64
#define NODE_NONE 0u

typedef struct mnode {
    pips_move move;       /* the move from the parent */
    uint32_t first_child; /* index of the first child; NODE_NONE until expanded */
    uint32_t n_children;
    uint32_t visits;
    float prob;     /* probability as a chance outcome */
    int8_t to_move; /* mover at this node, once expanded */
    uint8_t expanded;
    uint8_t proven; /* exact value known: sums / visits is it (MCTS-Solver) */
    uint8_t top;    /* opp=topk: one of its mover's k best children by prior;
                     * opp=search: how many of its mover's own searches chose it */
    uint8_t searched; /* opp=search: the mover plays the children marked top, each
                       * in proportion to its count (oppruns=K) */
    uint8_t ties_only; /* its children are the greedy policy's ties (greedy_ties) */
    uint8_t sampled;   /* oppsample=K: its mover plays the best prior of K random children,
                        * each child's chance of that in prob */
    float prior;    /* the parent's mover's value of this child by evaluate; -1 if none */
} mnode;

enum { OPP_MAX, OPP_GREEDY, OPP_SOFTMAX, OPP_TOPK, OPP_ADAPT, OPP_SEARCH };
enum { ORDER_SHUFFLE, ORDER_HOOK, ORDER_EVAL };

/* Progressive History: summed returns and counts by (seat, move), open
 * addressing; when full, new pairs are not recorded. */
#define HIST_BITS 14
typedef struct hist_entry {
    uint64_t key; /* (move, seat) mixed; 0 = empty */
    float sum;
    uint32_t count;
} hist_entry;

/* A model playout's greedy moves by position (mtree.ties): the moves of
 * the best prior at a position where a seat other than the root's moves,
 * and the evaluate calls it took to find them. Direct-mapped; an entry
 * with more ties than TIES_MAX is not kept. */
#define TIES_BITS 15
#define TIES_MAX 6
typedef struct ties_entry {
    uint64_t key; /* the position's hash mixed with the seat; 0 = empty */
    uint32_t evals;
    uint32_t k;
    pips_move moves[TIES_MAX];
} ties_entry;

typedef struct mtree {
    const pips_game *game;
    int np;
    size_t state_size, max_moves;
    mnode *nodes;
    float *sums; /* np per node: summed returns */
    size_t count, cap, max_nodes;
    bool valid;
    unsigned char *root_state, *work;
    pips_move *moves, *playout_buf;
    double *prob;
    uint32_t *path;
    size_t path_cap;
    pips_rng rng;
    double c;
    bool eval_leaves; /* value new leaves with the evaluate hook, not a playout */
    int order_mode;   /* ORDER_*: how unvisited children are tried */
    int opp;          /* OPP_*: how seats other than root_seat choose */
    double temp;      /* softmax temperature */
    int topk;         /* opp=topk: how many of an opponent's best moves it considers */
    bool searcher[PIPS_MAX_PLAYERS]; /* opp=adapt: seats seen off the greedy policy */
    struct mtree *inner; /* opp=search: the tree of the opponents' own searches */
    long inner_iters;    /* opp=search: passes of each of those searches */
    uint64_t inner_evals; /* oppevals=E: evaluate calls each of them may make, 0 = no cap */
    int inner_runs;      /* oppruns=K: searches (fresh rngs) asked at each reply node */
    int sample_k;        /* oppsample=K: a searching seat's moves looked at, 0 = all */
    bool first_round;    /* the node being expanded: no root-seat turn since the root */
    const mnode *given;  /* opp=search in a sampled game: the outer reply node's */
    size_t n_given;      /* children, the root moves of the next inner search */
    double ph;        /* Progressive History weight (0 = off) */
    int root_seat;    /* the seat to move at the root of this search */
    bool settle;      /* evaluate leaves only where the root seat moves */
    bool stratify;    /* chance=stratify: outcomes in turn by their share, not sampled */
    hist_entry *hist; /* 1 << HIST_BITS when ph > 0 */
    ties_entry *ties; /* 1 << TIES_BITS where model playouts follow the greedy policy */
    unsigned char *child_state; /* scratch for priors */
    double *weights, *pbuf; /* max_moves scratch for the policy */
    float *sample_w;        /* oppsample=K: max_moves scratch for the children's chances */
    int sym;                /* sym=1: the root seat's moves one per symmetric set; 2: the
                             * searching seats' too */
    unsigned char *canon;   /* sym=1: scratch state */
    uint64_t *canon_hash;   /* sym=1: max_moves scratch */
    bool uniform;     /* uniform playouts, not the game's playout policy */
    double widen, widen_base; /* progressive widening exponent (0 = off) and base */
    int draws;        /* candidate samples merged at the root (sampled games) */
    int max_depth;    /* treedepth=D: nodes D plies down are not expanded (0 = no cap) */
    int rollout;      /* rollout=P: greedy plies, every seat, before a leaf is valued */
    int *order;       /* max_moves scores for ordering */
    uint64_t passes;
    uint64_t evals;   /* evaluate-hook calls of this search, inner searches included */
} mtree;

typedef struct mcts_impl {
    long iters;
    double time_limit;
    long eval_limit; /* evals=E: evaluate-hook calls a search may make, 0 = no cap */
    int threads;
    double c;
    size_t max_nodes;
    bool reuse;
    bool eval_leaves;
    int order_mode;
    int opp;
    bool settle;
    bool stratify;
    double temp, ph;
    int topk;
    bool searcher[PIPS_MAX_PLAYERS]; /* opp=adapt: seats seen off the greedy policy */
    long inner_iters;
    long inner_evals;  /* oppevals=E: each opponent search's cap on evaluate calls, 0 = none */
    int inner_runs;    /* oppruns=K: opponent searches per first-round reply node */
    int sample_k;      /* oppsample=K: a searching seat's moves looked at, 0 = all */
    int sym;           /* sym=1: the root seat's moves one per symmetric set; 2: the
                        * searching seats' too */
    bool inner_settle; /* oppsettle=1: the opponents' searches settle their leaves */
    bool uniform;
    double widen, widen_base;
    int draws;             /* draws=K: candidate samples merged at the root */
    int max_depth;         /* treedepth=D: the tree grows at most D plies below the root */
    int rollout;           /* rollout=P: greedy plies before a leaf is valued */
    int rerank;            /* rerank=M: the search's first M moves played out (0 = off) */
    int reruns;            /* reruns=R: playouts of each of them */
    int rerun_draws;       /* rerundraws=K: candidate samples a playout move looks at */
    bool rerun_solo;       /* rerunsolo=1: a playout counts only a win alone */
    long rerun_opp;        /* rerunopp=N: passes of each first-round reply search (0 = greedy) */
    int rerun_opp_draws;   /* rerunoppdraws=K: root samples of those searches */
    struct mtree *rerun_tree; /* rerunopp: the tree of those searches */
    double *rerank_sum;    /* rerank: per move, the root seat's summed returns */
    long *rerank_runs;     /* rerank: per move, its playouts */
    size_t *rerank_in;     /* rerank: the moves still in (rerunhalve), search order */
    bool rerun_halve;      /* rerunhalve=1: sequential halving over the M moves */
    size_t eval_cap;       /* merged root moves kept: 2 * draws * max_moves */
    mtree trees[MCTS_MAX_THREADS];
    long exact;                  /* exact=N: positions of the model solve, 0 = off */
    model_solver *exact_solver;  /* exact > 0 */
    pips_move *exact_moves;      /* eval_cap each: the root moves and */
    model_value *exact_values;   /* their values under the model */
    double exact_worst;          /* worst=W: the solver's weight of the worst case */
    bool exact_unknown;          /* unknown=search: a seat whose moves fit both models searches */
    double exact_prior;          /* prior=P: weigh every assignment of the seats (0 = off) */
    bool exact_observe;          /* pickobs=N: observing a move runs the seat's own searches */
    model_value *exact_sum;      /* prior=P: the values weighed over the assignments */
    bool *exact_best;
    pips_move_eval *evals; /* eval_cap */
    double *proven;        /* per merged move: its proven value, or -1 */
    int *rank_class;       /* per merged move: 2 proven win, 1 open, 0 proven loss */
} mcts_impl;

/* ---- arena ------------------------------------------------------------------ */

static bool tree_reserve(mtree *t, size_t more)
{
    if (t->count + more <= t->cap)
        return true;
    if (t->count + more > t->max_nodes)
        return false;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->count + more)
        cap *= 2;
    if (cap > t->max_nodes)
        cap = t->max_nodes;
    const pips_allocator *al = t->game->alloc;
    mnode *nodes = pips_realloc(al, t->nodes, cap * sizeof *nodes);
    if (!nodes)
        return false;
    t->nodes = nodes;
    float *sums = pips_realloc(al, t->sums, cap * (size_t)t->np * sizeof *sums);
    if (!sums)
        return false;
    t->sums = sums;
    t->cap = cap;
    return true;
}

static void tree_reset(mtree *t, const void *state)
{
    memcpy(t->root_state, state, t->state_size);
    t->count = 0;
    tree_reserve(t, 1);
    t->count = 1;
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->nodes[0].move = PIPS_MOVE_NONE;
    for (int p = 0; p < t->np; p++)
        t->sums[p] = 0;
    t->valid = true;
}

/* The value of state + m for seat who: the returns if the game ends there,
 * else the evaluate hook (a chance node is evaluated as it stands). */
static double child_prior(mtree *t, const void *state, pips_move m, int who)
{
    const pips_game *g = t->game;
    double v[PIPS_MAX_PLAYERS];
    memcpy(t->child_state, state, t->state_size);
    g->def->apply(g, t->child_state, m);
    if (g->def->to_move(g, t->child_state) == PIPS_OVER)
        g->def->returns(g, t->child_state, v);
    else if (g->def->evaluate) {
        g->def->evaluate(g, t->child_state, v);
        t->evals++;
    } else
        return 0.5; /* as greedy: only immediate results are known */
    return v[who];
}

/* Picks index 0..n-1 by the opponent model's policy over prior[]: greedy
 * the best (ties uniformly), softmax in proportion to exp(prior / temp).
 * weights receives each index's probability when not NULL. */
static size_t policy_pick(mtree *t, const double *prior, size_t n, double *weights)
{
    double best = -1;
    for (size_t i = 0; i < n; i++)
        if (prior[i] > best)
            best = prior[i];
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        double p = prior[i], w;
        if (t->opp != OPP_SOFTMAX) /* greedy; topk's playouts too */
            w = p >= best - 1e-6 ? 1.0 : 0.0;
        else
            w = exp((p - best) / t->temp);
        t->weights[i] = w;
        total += w;
    }
    if (weights)
        for (size_t i = 0; i < n; i++)
            weights[i] = t->weights[i] / total;
    double r = pips_rng_double(&t->rng) * total, acc = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        acc += t->weights[i];
        if (r < acc && t->weights[i] > 0)
            return i;
    }
    for (size_t i = n; i-- > 0;)
        if (t->weights[i] > 0)
            return i;
    return 0;
}

/* Whether seat who's tree nodes follow the opponent model's policy (not
 * UCT on its own return): every seat but the root's unless opp=max. */
static bool follows_policy(const mtree *t, int who)
{
    return t->opp != OPP_MAX && who != t->root_seat;
}

/* policy_pick's choice among k children of equal weight from one rng
 * draw r: the j-th for j <= r * k < j + 1, as its running sum finds it. */
static uint32_t tie_index(mtree *t, uint32_t k)
{
    double r = pips_rng_double(&t->rng) * (double)k;
    uint32_t j = 0;
    while (j + 1 < k && !(r < (double)(j + 1)))
        j++;
    return j;
}

/* Whether seat who's nodes follow the greedy policy (policy_pick's ties;
 * topk and softmax have policies of their own). */
static bool follows_greedy(const mtree *t, int who)
{
    return follows_policy(t, who) &&
           (t->opp == OPP_GREEDY || t->opp == OPP_ADAPT || t->opp == OPP_SEARCH);
}

/* oppsample=K: whether seat who, with n moves, is modelled as playing the
 * best prior of K of them drawn at random (a searching seat with more). */
static bool samples_moves(const mtree *t, int who, size_t n)
{
    return t->sample_k > 0 && n > (size_t)t->sample_k && who >= 0 && who != t->root_seat &&
           (t->opp == OPP_SEARCH || (t->opp == OPP_ADAPT && t->searcher[who]));
}

/* oppsample=K: the chance that each of n moves, sorted by prior best
 * first, is the best of K drawn at random without repeats: C(n-1-r, K-1) /
 * C(n, K) for rank r (k/n for the first, each next one (n-r-K)/(n-1-r)
 * times the one before), shared equally within a run of tied priors. */
static void sample_weights(const double *prior, size_t n, size_t k, float *w)
{
    double chance = (double)k / (double)n;
    for (size_t r = 0; r < n; r++) {
        w[r] = (float)chance;
        chance = r + k < n ? chance * (double)(n - r - k) / (double)(n - 1 - r) : 0;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double sum = 0;
        while (j < n && (float)prior[j] >= (float)prior[i] - 1e-6f)
            sum += w[j++];
        for (size_t r = i; r < j; r++)
            w[r] = (float)(sum / (double)(j - i));
        i = j;
    }
}

/* Keeps, of the n moves and their priors, those policy_pick's greedy policy
 * can play (prior within 1e-6 of the best, compared as the nodes store
 * them, in float), in their order; returns how many. A node that follows
 * the greedy policy never visits nor counts (try_prove) its other
 * children, and picks the j-th of these ties from the same rng draw with
 * or without them, so leaving them out changes no choice: it only spares
 * select_child and try_prove a walk over every child (three of four seats
 * in a four-seat inner search). */
static size_t greedy_ties(pips_move *moves, double *prior, size_t n)
{
    double best = -1;
    for (size_t i = 0; i < n; i++)
        if ((float)prior[i] > best)
            best = (float)prior[i];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((float)prior[i] >= best - 1e-6) {
            moves[k] = moves[i];
            prior[k++] = prior[i];
        }
    return k;
}

static uint64_t hist_key(pips_move m, int seat)
{
    uint64_t k = (m + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)seat + 1) * 0xC2B2AE3D27D4EB4Full;
    return k ? k : 1;
}

static hist_entry *hist_find(mtree *t, pips_move m, int seat, bool insert)
{
    uint64_t k = hist_key(m, seat);
    size_t mask = ((size_t)1 << HIST_BITS) - 1;
    for (size_t i = (size_t)(k >> 20) & mask, probes = 0; probes < 64; i = (i + 1) & mask, probes++) {
        hist_entry *e = &t->hist[i];
        if (e->key == k)
            return e;
        if (e->key == 0) {
            if (!insert)
                return NULL;
            e->key = k;
            return e;
        }
    }
    return NULL;
}

static void one_pass(mtree *t);
static bool expand(mtree *t, uint32_t node, const void *state);
static bool rank_before(const pips_move_eval *e, int cls, const pips_move_eval *f, int fc);

/* The move of seat who at state by a search of iters passes on tree in
 * (fewer once it has made evals_cap evaluate calls; 0 = no cap), its rng
 * drawn from t's; with kids, among those n moves only; chosen as the agent
 * chooses (see rank_before). Its evaluate calls count in t's.
 * PIPS_MOVE_NONE when the arena is full. */
static pips_move tree_choice(mtree *t, mtree *in, const void *state, int who, const mnode *kids,
                             size_t n, long iters, uint64_t evals_cap)
{
    pips_rng_derive(&in->rng, pips_rng_next(&t->rng), 0);
    in->root_seat = who;
    tree_reset(in, state);
    in->given = kids;
    in->n_given = n;
    bool ok = expand(in, 0, in->root_state);
    in->n_given = 0;
    if (!ok)
        return PIPS_MOVE_NONE;
    in->evals = 0;
    for (long i = 0; i < iters && !in->nodes[0].proven && (!evals_cap || in->evals < evals_cap);
         i++)
        one_pass(in);
    t->evals += in->evals;
    const mnode *root = &in->nodes[0];
    pips_move_eval best = {PIPS_MOVE_NONE, 0, 0, false};
    int best_cls = -1;
    for (uint32_t i = 0; i < root->n_children; i++) {
        uint32_t c = root->first_child + i;
        const mnode *cn = &in->nodes[c];
        double mean = cn->visits ? in->sums[(size_t)c * in->np + who] / cn->visits : 0;
        bool proven = cn->proven && cn->visits;
        pips_move_eval e = {cn->move, mean, cn->visits, proven};
        int cls = !proven ? 1 : mean >= 1 - 1e-6 ? 2 : mean <= 1e-6 ? 0 : 1;
        if (best_cls < 0 || rank_before(&e, cls, &best, best_cls)) {
            best = e;
            best_cls = cls;
        }
    }
    return best.move;
}

/* opp=search: seat who's own move at state, by a search of t->inner_iters
 * passes (oppevals=E caps its evaluate calls) in which every other seat (the
 * root's too) follows the greedy policy. */
static pips_move inner_choice(mtree *t, const void *state, int who, const mnode *kids, size_t n)
{
    return tree_choice(t, t->inner, state, who, kids, n, t->inner_iters, t->inner_evals);
}

/* draws=K: K - 1 more candidate samples of the root's moves, appended to
 * the n in t->moves without repeats; the new count. */
static size_t more_root_draws(mtree *t, const void *state, size_t n)
{
    for (int k = 1; k < t->draws; k++) {
        size_t got = pips_node_moves(t->game, state, &t->rng, t->moves + n, NULL), kept = n;
        for (size_t i = n; i < n + got; i++) {
            size_t j = 0;
            while (j < kept && t->moves[j] != t->moves[i])
                j++;
            if (j == kept)
                t->moves[kept++] = t->moves[i];
        }
        n = kept;
    }
    return n;
}

/* sym=1|2: keeps, of the n moves of seat who at state, the first of each
 * set whose results have the same canonical form (by its hash), where the
 * option reduces that seat's moves (sym_reduces); the new count. */
static bool sym_reduces(const mtree *t, int who)
{
    bool searcher = t->opp == OPP_SEARCH || (t->opp == OPP_ADAPT && t->searcher[who]);
    return t->sym && who >= 0 && (who == t->root_seat || (t->sym == 2 && searcher));
}

static size_t distinct_moves(mtree *t, const void *state, int who, pips_move *moves, size_t n)
{
    const pips_game *g = t->game;
    if (n < 2 || !sym_reduces(t, who))
        return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(t->child_state, state, t->state_size);
        g->def->apply(g, t->child_state, moves[i]);
        g->def->canonical(g, t->child_state, t->canon);
        uint64_t h = g->def->hash(g, t->canon);
        size_t j = 0;
        while (j < kept && t->canon_hash[j] != h)
            j++;
        if (j == kept) {
            t->canon_hash[kept] = h;
            moves[kept++] = moves[i];
        }
    }
    return kept;
}

/* Creates the children of node at state (the moves drawn once, here). */
static bool expand(mtree *t, uint32_t node, const void *state)
{
    const pips_game *g = t->game;
    int who = g->def->to_move(g, state);
    size_t n = 0;
    if (node == 0 && t->n_given) /* an inner search chooses among the outer node's moves */
        for (; n < t->n_given; n++)
            t->moves[n] = t->given[n].move;
    else
        n = pips_node_moves(g, state, &t->rng, t->moves, t->prob);
    if (node == 0 && who >= 0 && t->draws > 1 && (g->def->flags & PIPS_GAME_NOT_ENUMERABLE))
        n = more_root_draws(t, state, n);
    if (!(node == 0 && t->n_given))
        n = distinct_moves(t, state, who, t->moves, n);
    if (!tree_reserve(t, n))
        return false;
    mnode *nd = &t->nodes[node];
    nd->to_move = (int8_t)who;
    nd->expanded = 1;
    nd->first_child = (uint32_t)t->count;
    if (who >= 0)
        for (size_t i = n; i > 1; i--) { /* shuffle: unvisited children in random order */
            size_t j = (size_t)pips_rng_below(&t->rng, i);
            pips_move m = t->moves[i - 1];
            t->moves[i - 1] = t->moves[j];
            t->moves[j] = m;
        }
    bool want_priors = who >= 0 && (t->order_mode == ORDER_EVAL ||
                                    (t->opp != OPP_MAX && who != t->root_seat));
    double *prior = t->prob; /* free at decision nodes */
    if (want_priors) {
        for (size_t i = 0; i < n; i++)
            prior[i] = child_prior(t, state, t->moves[i], who);
        if (t->order_mode == ORDER_EVAL || samples_moves(t, who, n))
            for (size_t i = 1; i < n; i++) { /* best prior first, stable over the shuffle */
                pips_move m = t->moves[i];
                double v = prior[i];
                size_t j = i;
                while (j > 0 && prior[j - 1] < v) {
                    t->moves[j] = t->moves[j - 1];
                    prior[j] = prior[j - 1];
                    j--;
                }
                t->moves[j] = m;
                prior[j] = v;
            }
    }
    /* opp=search, adapt: this seat's own search chooses here (below) */
    bool best_of_k = want_priors && samples_moves(t, who, n);
    bool searches = t->inner && who >= 0 && who != t->root_seat && t->first_round && n > 1 &&
                    (t->opp == OPP_SEARCH || t->searcher[who]) && !best_of_k;
    if (want_priors && !searches && !best_of_k && follows_greedy(t, who) && n > 0 &&
        (float)prior[0] >= 0) {
        n = greedy_ties(t->moves, prior, n);
        nd->ties_only = 1;
    }
    nd->n_children = (uint32_t)n;
    if (who >= 0 && !want_priors && (t->order_mode == ORDER_HOOK || t->widen > 0) &&
        g->def->order_moves && n > 1) {
        /* the hook's order first (stable over the shuffle): unvisited children
         * are tried in this order */
        g->def->order_moves(g, state, t->moves, n, t->order);
        for (size_t i = 1; i < n; i++) {
            pips_move m = t->moves[i];
            int sc = t->order[i];
            size_t j = i;
            while (j > 0 && t->order[j - 1] < sc) {
                t->moves[j] = t->moves[j - 1];
                t->order[j] = t->order[j - 1];
                j--;
            }
            t->moves[j] = m;
            t->order[j] = sc;
        }
    }
    for (size_t i = 0; i < n; i++) {
        mnode *c = &t->nodes[t->count + i];
        memset(c, 0, sizeof *c);
        c->move = t->moves[i];
        c->prob = who == PIPS_CHANCE ? (float)t->prob[i] : 0.0f;
        c->prior = want_priors ? (float)prior[i] : -1.0f;
        c->top = 0;
        c->searched = 0;
        memset(t->sums + (t->count + i) * (size_t)t->np, 0, (size_t)t->np * sizeof(float));
    }
    if (t->opp == OPP_TOPK && who >= 0 && who != t->root_seat) {
        /* the k best priors, ties to the earlier child (the shuffle's or
         * order=eval's order) */
        mnode *kids = &t->nodes[t->count];
        for (int r = 0; r < t->topk && (size_t)r < n; r++) {
            size_t best = n;
            for (size_t i = 0; i < n; i++)
                if (!kids[i].top && (best == n || kids[i].prior > kids[best].prior))
                    best = i;
            kids[best].top = 1;
        }
    }
    if (best_of_k) {
        sample_weights(prior, n, (size_t)t->sample_k, t->sample_w);
        for (size_t i = 0; i < n; i++)
            t->nodes[t->count + i].prob = t->sample_w[i];
        nd->sampled = 1;
    }
    t->count += n;
    if (searches) {
        mnode *kids = &t->nodes[t->count - n];
        /* where moves are sampled, the search chooses among this node's
         * sample: one of its own would seldom hold the move it picks */
        bool sampled = (g->def->flags & PIPS_GAME_NOT_ENUMERABLE) != 0;
        /* oppruns=K: K searches, each with a fresh rng, sample the move of a
         * searcher whose choice varies from run to run; each answer counts 1/K */
        for (int r = 0; r < t->inner_runs; r++) {
            pips_move m = inner_choice(t, state, who, sampled ? kids : NULL, sampled ? n : 0);
            for (size_t i = 0; i < n; i++)
                if (kids[i].move == m) {
                    kids[i].top++;
                    t->nodes[node].searched = 1;
                    break;
                }
        }
    }
    return true;
}

/* The child of nd furthest below its share of nd's passes so far (ties to
 * the first): the share is a child's prob, or with by_top its top count over
 * the children's total; a child with no share is never taken. Used where a
 * node plays its children in proportion (chance=stratify, oppsample,
 * oppruns' searched answers) instead of drawing or choosing one. */
static uint32_t behind_share(const mtree *t, const mnode *nd, bool by_top)
{
    uint32_t first = nd->first_child, n = nd->n_children, pick = first;
    double total = 0, best = -1e30;
    if (by_top)
        for (uint32_t i = 0; i < n; i++)
            total += t->nodes[first + i].top;
    for (uint32_t i = 0; i < n; i++) {
        const mnode *c = &t->nodes[first + i];
        double share = by_top ? (c->top ? c->top / total : 0) : (double)c->prob;
        if (share <= 0)
            continue;
        double deficit = share * ((double)nd->visits + 1) - (double)c->visits;
        if (deficit > best + 1e-9) {
            best = deficit;
            pick = first + i;
        }
    }
    return pick;
}

static uint32_t select_child(mtree *t, uint32_t node)
{
    mnode *nd = &t->nodes[node];
    uint32_t first = nd->first_child, n = nd->n_children;
    if (nd->to_move == PIPS_CHANCE && t->stratify) /* outcomes by their share */
        return behind_share(t, nd, false);
    if (nd->to_move == PIPS_CHANCE) {
        double r = pips_rng_double(&t->rng), acc = 0;
        for (uint32_t i = 0; i + 1 < n; i++) {
            acc += t->nodes[first + i].prob;
            if (r < acc)
                return first + i;
        }
        return first + n - 1;
    }
    int who = nd->to_move;
    if (nd->sampled) /* oppsample=K: each child by its chance of being the best of K */
        return behind_share(t, nd, false);
    if (nd->searched) /* the searches' answers, each by how many of them chose it */
        return behind_share(t, nd, true);
    if (t->opp == OPP_TOPK && who != t->root_seat && t->nodes[first].prior >= 0) {
        /* the opponent's k best moves; among them, by UCT, the worst for the
         * root seat */
        double log_n = log((double)(nd->visits > 0 ? nd->visits : 1)), best = -1;
        uint32_t pick = first;
        for (uint32_t i = 0; i < n; i++) {
            const mnode *c = &t->nodes[first + i];
            if (!c->top)
                continue;
            if (c->visits == 0)
                return first + i;
            double against = 1 - t->sums[(size_t)(first + i) * t->np + t->root_seat] / c->visits;
            double u = c->proven ? against : against + t->c * sqrt(log_n / c->visits);
            if (u > best) {
                best = u;
                pick = first + i;
            }
        }
        return pick;
    }
    if (nd->ties_only) /* policy_pick over equal weights, from the same draw */
        return first + tie_index(t, n);
    if (follows_policy(t, who) && t->nodes[first].prior >= 0) {
        for (uint32_t i = 0; i < n; i++)
            t->pbuf[i] = t->nodes[first + i].prior;
        return first + (uint32_t)policy_pick(t, t->pbuf, n, NULL);
    }
    if (t->widen > 0) {
        double k = ceil(t->widen_base * pow((double)nd->visits + 1, t->widen));
        if (k < n)
            n = k < 1 ? 1 : (uint32_t)k;
    }
    double log_n = log((double)(nd->visits > 0 ? nd->visits : 1));
    double best = -1;
    uint32_t pick = first;
    for (uint32_t i = 0; i < n; i++) {
        const mnode *c = &t->nodes[first + i];
        if (c->visits == 0)
            return first + i;
        double mean = t->sums[(size_t)(first + i) * t->np + who] / c->visits;
        double u = c->proven ? mean : mean + t->c * sqrt(log_n / c->visits);
        if (t->ph > 0 && !c->proven) {
            const hist_entry *h = hist_find(t, c->move, who, false);
            if (h && h->count)
                u += t->ph * (h->sum / h->count) / ((1 - mean) * c->visits + 1);
        }
        if (u > best) {
            best = u;
            pick = first + i;
        }
    }
    return pick;
}

/* The proven value of seat p at node n (only for proven nodes). */
static double proven_value(const mtree *t, uint32_t n, int p)
{
    return t->sums[(size_t)n * t->np + p] / t->nodes[n].visits;
}

/* Marks node proven when its children settle it: a decision node when one
 * child gives its mover the best possible return (1) or every child is
 * proven (then the best of them for the mover, the mean over ties: the
 * mover is indifferent among them); under an opponent model, a node of
 * another seat when every child its policy can pick is proven (the policy's
 * expectation); a chance node when every outcome is proven (the
 * expectation). The node's sums are reset to the exact value times its
 * visits so its mean is that value from now on. */
static bool try_prove(mtree *t, uint32_t n)
{
    mnode *nd = &t->nodes[n];
    if (!nd->expanded || nd->n_children == 0 || nd->visits == 0)
        return false;
    int np = t->np, who = nd->to_move;
    uint32_t first = nd->first_child, k = nd->n_children;
    double v[PIPS_MAX_PLAYERS] = {0};
    if (who == PIPS_CHANCE || nd->sampled) { /* the expectation over prob */
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (nd->sampled && t->nodes[c].prob <= 0)
                continue;
            if (!t->nodes[c].proven || t->nodes[c].visits == 0)
                return false;
            for (int p = 0; p < np; p++)
                v[p] += t->nodes[c].prob * proven_value(t, c, p);
        }
    } else if (nd->searched) { /* the searches' answers, each weighted by its count */
        double total = 0;
        for (uint32_t i = 0; i < k; i++)
            total += t->nodes[first + i].top;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (!t->nodes[c].top)
                continue;
            if (!t->nodes[c].proven || t->nodes[c].visits == 0)
                return false;
            for (int p = 0; p < np; p++)
                v[p] += t->nodes[c].top / total * proven_value(t, c, p);
        }
    } else if (t->opp == OPP_TOPK && who != t->root_seat && t->nodes[first].prior >= 0) {
        /* the worst of the top children for the root seat: settled by a
         * proven loss for it among them, or by all of them (the mean over
         * ties) */
        bool all = true;
        double worst = 2;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (!t->nodes[c].top)
                continue;
            if (!t->nodes[c].proven || t->nodes[c].visits == 0) {
                all = false;
                continue;
            }
            double rv = proven_value(t, c, t->root_seat);
            if (rv < worst - 1e-6)
                worst = rv;
        }
        if (worst > 1e-6 && !all)
            return false;
        int ties = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (!t->nodes[c].top || !t->nodes[c].proven || t->nodes[c].visits == 0 ||
                proven_value(t, c, t->root_seat) > worst + 1e-6)
                continue;
            ties++;
            for (int p = 0; p < np; p++)
                v[p] += proven_value(t, c, p);
        }
        for (int p = 0; p < np; p++)
            v[p] /= ties;
    } else if (follows_policy(t, who) && t->nodes[first].prior >= 0) {
        if (nd->ties_only) { /* each child 1/k, and policy_pick's draw taken */
            (void)pips_rng_double(&t->rng);
            for (uint32_t i = 0; i < k; i++)
                t->pbuf[i] = 1.0 / (double)k;
        } else {
            for (uint32_t i = 0; i < k; i++)
                t->pbuf[i] = t->nodes[first + i].prior;
            policy_pick(t, t->pbuf, k, t->pbuf); /* pbuf: each child's probability */
        }
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (t->pbuf[i] <= 0)
                continue;
            if (!t->nodes[c].proven || t->nodes[c].visits == 0)
                return false;
            for (int p = 0; p < np; p++)
                v[p] += t->pbuf[i] * proven_value(t, c, p);
        }
    } else {
        bool all = true;
        double best = -1;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (!t->nodes[c].proven || t->nodes[c].visits == 0) {
                all = false;
                continue;
            }
            double mine = proven_value(t, c, who);
            if (mine > best + 1e-6)
                best = mine;
        }
        if (best < 1.0 - 1e-6 && !all)
            return false;
        int ties = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = first + i;
            if (!t->nodes[c].proven || t->nodes[c].visits == 0 ||
                proven_value(t, c, who) < best - 1e-6)
                continue;
            ties++;
            for (int p = 0; p < np; p++)
                v[p] += proven_value(t, c, p);
        }
        for (int p = 0; p < np; p++)
            v[p] /= ties;
    }
    nd->proven = 1;
    for (int p = 0; p < np; p++)
        t->sums[(size_t)n * np + p] = (float)(v[p] * nd->visits);
    return true;
}

/* The entry of mtree.ties for seat who at st. */
static ties_entry *ties_slot(const mtree *t, const void *st, int who, uint64_t *key)
{
    *key = (t->game->def->hash(t->game, st) ^ pips_mix64((uint64_t)who + 1)) | 1;
    return &t->ties[*key >> (64 - TIES_BITS)];
}

/* A model playout's move for seat who at st from mtree.ties, when kept:
 * the tie policy_pick would take from the same rng draw (the j-th of the
 * k ties for a draw r with j <= r * k < j + 1, as its running sum finds
 * it), with the evaluate calls the priors took counted again, so the
 * search, evals=N included, is the same as without the table. */
static bool playout_tie(mtree *t, const void *st, int who, pips_move *m)
{
    uint64_t key;
    const ties_entry *e;
    if (!t->ties || (e = ties_slot(t, st, who, &key))->key != key)
        return false;
    *m = e->moves[tie_index(t, e->k)];
    t->evals += e->evals;
    return true;
}

/* Keeps in mtree.ties the greedy moves among the n of t->playout_buf
 * valued in t->pbuf (policy_pick's ties, in their order). */
static void keep_ties(mtree *t, const void *st, int who, size_t n, uint64_t evals)
{
    if (!t->ties)
        return;
    double best = -1;
    for (size_t i = 0; i < n; i++)
        if (t->pbuf[i] > best)
            best = t->pbuf[i];
    pips_move ties[TIES_MAX];
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (t->pbuf[i] >= best - 1e-6) {
            if (k == TIES_MAX)
                return;
            ties[k++] = t->playout_buf[i];
        }
    uint64_t key;
    ties_entry *e = ties_slot(t, st, who, &key);
    e->key = key;
    e->k = k;
    e->evals = (uint32_t)evals;
    memcpy(e->moves, ties, k * sizeof *ties);
}

/* A playout in which the seats other than the root's follow the opponent
 * model's policy over their moves' priors (evaluate hook); the root seat
 * and the dice play as in a plain playout. With to_root it stops instead
 * when the root seat is to move (settle=1). */
static void model_playout(mtree *t, bool to_root)
{
    const pips_game *g = t->game;
    const pips_game_def *d = g->def;
    void *st = t->work;
    for (size_t plies = 0; plies < AGENT_PLAYOUT_MAX_PLIES; plies++) {
        int who = d->to_move(g, st);
        if (who == PIPS_OVER || (to_root && who == t->root_seat))
            return;
        pips_move m;
        size_t n_all;
        if (t->sample_k > 0 && who >= 0 && who != t->root_seat &&
            samples_moves(t, who, n_all = pips_node_moves(g, st, &t->rng, t->playout_buf, NULL))) {
            /* oppsample=K: the best prior of K moves drawn without repeats */
            for (size_t i = 0; i < (size_t)t->sample_k; i++) {
                size_t j = i + (size_t)pips_rng_below(&t->rng, n_all - i);
                pips_move tmp = t->playout_buf[i];
                t->playout_buf[i] = t->playout_buf[j];
                t->playout_buf[j] = tmp;
                t->pbuf[i] = child_prior(t, st, t->playout_buf[i], who);
            }
            m = t->playout_buf[policy_pick(t, t->pbuf, (size_t)t->sample_k, NULL)];
        } else if (who >= 0 && who != t->root_seat) {
            /* mtree.ties keeps a greedy pick among all moves: not for a seat
             * whose moves sym=2 reduces */
            bool reduced = sym_reduces(t, who);
            if (reduced || !playout_tie(t, st, who, &m)) {
                size_t n = pips_node_moves(g, st, &t->rng, t->playout_buf, NULL);
                if (n == 0)
                    return;
                n = distinct_moves(t, st, who, t->playout_buf, n);
                uint64_t evals = t->evals;
                for (size_t i = 0; i < n; i++)
                    t->pbuf[i] = child_prior(t, st, t->playout_buf[i], who);
                m = t->playout_buf[policy_pick(t, t->pbuf, n, NULL)];
                if (!reduced)
                    keep_ties(t, st, who, n, t->evals - evals);
            }
        } else if (who >= 0 && !t->uniform && d->playout_move) {
            if (!d->playout_move(g, st, &t->rng, &m))
                return;
        } else if (who == PIPS_CHANCE && d->sample_chance) {
            if (!d->sample_chance(g, st, &t->rng, &m))
                return;
        } else {
            size_t n = pips_node_moves(g, st, &t->rng, t->playout_buf, t->prob);
            if (n == 0)
                return;
            m = t->playout_buf[who == PIPS_CHANCE ? pips_sample_chance(&t->rng, t->prob, n)
                                                  : pips_rng_below(&t->rng, n)];
        }
        d->apply(g, st, m);
    }
}

/* Plays up to plies moves on t->work with every seat, the root's too,
 * taking its best move by child_prior on moves drawn afresh (ties at
 * random: the greedy agent's policy) and the dice sampled; stops early
 * when the game ends. Where moves are sampled, samples > 1 draws that
 * many candidate samples a move and takes the best of them all (a greedy
 * player that looks at as many placements as draws=K's root). */
static void greedy_rollout(mtree *t, long plies, int samples)
{
    const pips_game *g = t->game;
    const pips_game_def *d = g->def;
    void *st = t->work;
    for (long ply = 0; ply < plies; ply++) {
        int who = d->to_move(g, st);
        if (who == PIPS_OVER)
            return;
        size_t n = pips_node_moves(g, st, &t->rng, t->playout_buf, t->prob);
        if (n == 0)
            return;
        pips_move pick = t->playout_buf[0];
        if (who == PIPS_CHANCE) {
            pick = t->playout_buf[pips_sample_chance(&t->rng, t->prob, n)];
        } else {
            int more = d->flags & PIPS_GAME_NOT_ENUMERABLE ? samples - 1 : 0;
            double best = -1;
            unsigned ties = 0;
            for (;;) { /* a repeat drawn twice may count twice among the ties: harmless */
                for (size_t i = 0; i < n; i++) {
                    double v = child_prior(t, st, t->playout_buf[i], who);
                    if (v > best + 1e-9) {
                        best = v;
                        pick = t->playout_buf[i];
                        ties = 1;
                    } else if (v >= best - 1e-9 && pips_rng_below(&t->rng, ++ties) == 0) {
                        pick = t->playout_buf[i];
                    }
                }
                if (more-- <= 0 || !(n = pips_node_moves(g, st, &t->rng, t->playout_buf, NULL)))
                    break;
            }
        }
        d->apply(g, st, pick);
    }
}

static void one_pass(mtree *t)
{
    const pips_game *g = t->game;
    const pips_game_def *d = g->def;
    memcpy(t->work, t->root_state, t->state_size);
    uint32_t node = 0;
    size_t len = 0;
    t->path[len++] = 0;
    t->first_round = true;
    for (;;) {
        mnode *nd = &t->nodes[node];
        if (nd->proven)
            break;
        if (node != 0 && nd->expanded && nd->to_move == t->root_seat)
            t->first_round = false;
        if (!nd->expanded) {
            if (d->to_move(g, t->work) == PIPS_OVER) {
                nd->proven = 1;
                break;
            }
            if (nd->visits == 0 && node != 0)
                break; /* a new leaf: play out from here */
            if (t->max_depth > 0 && len > (size_t)t->max_depth)
                break; /* treedepth=D: valued afresh on every pass, never grown */
            if (!expand(t, node, t->work))
                break; /* arena full: keep playing out from here */
            nd = &t->nodes[node];
        }
        if (nd->n_children == 0)
            break;
        uint32_t child = select_child(t, node);
        d->apply(g, t->work, t->nodes[child].move);
        node = child;
        if (len == t->path_cap) {
            size_t cap = t->path_cap * 2;
            uint32_t *p = pips_realloc(g->alloc, t->path, cap * sizeof *p);
            if (!p)
                break;
            t->path = p;
            t->path_cap = cap;
        }
        t->path[len++] = node;
    }
    double r[PIPS_MAX_PLAYERS];
    const mnode *leaf = &t->nodes[node];
    if (leaf->proven && leaf->visits > 0) {
        for (int p = 0; p < t->np; p++)
            r[p] = t->sums[(size_t)node * t->np + p] / leaf->visits;
    } else if (d->to_move(g, t->work) == PIPS_OVER) {
        d->returns(g, t->work, r);
    } else if (t->eval_leaves) {
        if (t->settle || t->rollout) {
            if (t->settle) /* the others play the model's moves up to the root seat's turn */
                model_playout(t, true);
            if (t->rollout) /* then every seat greedy for P plies */
                greedy_rollout(t, t->rollout, 1);
            if (d->to_move(g, t->work) == PIPS_OVER) {
                d->returns(g, t->work, r);
            } else {
                d->evaluate(g, t->work, r);
                t->evals++;
            }
        } else {
            d->evaluate(g, t->work, r);
            t->evals++;
        }
    } else {
        if (t->opp != OPP_MAX)
            model_playout(t, false);
        else if (t->uniform)
            pips_random_playout(g, t->work, &t->rng, t->playout_buf, AGENT_PLAYOUT_MAX_PLIES);
        else
            pips_policy_playout(g, t->work, &t->rng, t->playout_buf, AGENT_PLAYOUT_MAX_PLIES);
        if (d->to_move(g, t->work) == PIPS_OVER) {
            d->returns(g, t->work, r);
        } else {
            for (int p = 0; p < t->np; p++)
                r[p] = 1.0 / t->np;
        }
    }
    for (size_t i = 0; i < len; i++) {
        uint32_t n = t->path[i];
        t->nodes[n].visits++;
        float *s = t->sums + (size_t)n * t->np;
        for (int p = 0; p < t->np; p++)
            s[p] += (float)r[p];
        int mover = i > 0 ? t->nodes[t->path[i - 1]].to_move : -1;
        if (t->ph > 0 && mover >= 0) {
            hist_entry *h = hist_find(t, t->nodes[n].move, mover, true);
            if (h) {
                h->sum += (float)r[mover];
                h->count++;
            }
        }
    }
    /* MCTS-Solver: settle proven values upward while they keep settling */
    for (size_t i = len; i-- > 0;) {
        uint32_t n = t->path[i];
        if (!t->nodes[n].proven && !try_prove(t, n))
            break;
    }
    t->passes++;
}

/* ---- the search ------------------------------------------------------------------ */

typedef struct run_args {
    mtree *tree;
    long passes;     /* > 0: this many; 0: until the deadline */
    bool capped;     /* passes > 0 and the deadline caps them too */
    double deadline;
    uint64_t eval_cap; /* evals=E: this tree's share of the evaluate calls, 0 = none */
} run_args;

/* Whether the tree has spent its share of evals=E. */
static bool evals_spent(const run_args *ra)
{
    return ra->eval_cap > 0 && ra->tree->evals >= ra->eval_cap;
}

static void *run_tree(void *arg)
{
    run_args *ra = arg;
    mtree *t = ra->tree;
    /* a proven root needs no more passes */
    if (ra->passes > 0) { /* iters, and time as a cap when given too */
        for (long i = 0; i < ra->passes && !t->nodes[0].proven && !evals_spent(ra); i++) {
            one_pass(t);
            if (ra->capped && pips_now() >= ra->deadline)
                break;
        }
    } else {
        do
            one_pass(t);
        while (!t->nodes[0].proven && pips_now() < ra->deadline && !evals_spent(ra));
    }
    return NULL;
}

/* Whether root move e (class cls) ranks before f (class fc) for the choice:
 * proven wins, then the rest, then proven losses. Within the middle class
 * two open moves go by visits (the robust child), then mean; two proven
 * shares (draws, N-seat splits) by their exact value; a proven share
 * against an open move by its exact value against the open move's mean, so
 * a proven draw is not passed over for a worse-looking move with more
 * visits (a proven child stops gaining visits once it is settled). */
static bool rank_before(const pips_move_eval *e, int cls, const pips_move_eval *f, int fc)
{
    if (cls != fc)
        return cls > fc;
    if (cls != 1 || (!e->proven && !f->proven))
        return e->visits > f->visits || (e->visits == f->visits && e->value > f->value);
    if (e->proven && f->proven)
        return e->value > f->value;
    return e->proven ? e->value >= f->value : e->value > f->value;
}

/* Runs the budget on every tree from state and merges the root statistics
 * into impl->evals (visits and the mover's mean), best first. */
static size_t mcts_search(pips_agent *a, const void *state, pips_error *err)
{
    mcts_impl *mi = a->impl;
    const pips_game *g = a->game;
    int me = g->def->to_move(g, state);
    double start = pips_now();
    double budget = agent_time_budget(a, mi->time_limit);
    run_args args[MCTS_MAX_THREADS];
    for (int k = 0; k < mi->threads; k++) {
        mtree *t = &mi->trees[k];
        pips_rng_derive(&t->rng, pips_rng_next(&a->rng), (uint64_t)k);
        if (t->root_seat != me) /* priors were taken for another root seat */
            t->valid = false;
        t->root_seat = me;
        memcpy(t->searcher, mi->searcher, sizeof t->searcher);
        if (t->hist)
            memset(t->hist, 0, ((size_t)1 << HIST_BITS) * sizeof *t->hist);
        /* opp=search marks only the replies of the first round after the
         * root; a kept subtree would have later rounds unmarked */
        if (!mi->reuse || !t->valid || t->inner || mi->draws > 1 ||
            memcmp(t->root_state, state, t->state_size) != 0)
            tree_reset(t, state);
        t->evals = 0; /* the root's expansion counts too */
        if (!t->nodes[0].expanded && !expand(t, 0, t->root_state))
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the search tree"), 0;
        args[k].tree = t;
        args[k].eval_cap = mi->eval_limit > 0
                               ? (uint64_t)(mi->eval_limit / mi->threads +
                                            (k < mi->eval_limit % mi->threads ? 1 : 0))
                               : 0;
        args[k].deadline = start + budget * AGENT_TIME_SAFETY;
        args[k].passes = 0;
        args[k].capped = mi->iters > 0 && budget > 0;
        if (mi->iters > 0)
            args[k].passes = mi->iters / mi->threads + (k < mi->iters % mi->threads ? 1 : 0);
    }
    if (mi->threads == 1) {
        run_tree(&args[0]);
    } else {
        pthread_t tid[MCTS_MAX_THREADS];
        int started = 0;
        for (int k = 1; k < mi->threads; k++) {
            if (pthread_create(&tid[k], NULL, run_tree, &args[k]) != 0)
                break;
            started = k;
        }
        run_tree(&args[0]);
        for (int k = 1; k <= started; k++)
            pthread_join(tid[k], NULL);
        for (int k = started + 1; k < mi->threads; k++)
            run_tree(&args[k]); /* a thread failed to start: run its share here */
    }
    /* merge root children by move, in tree order */
    size_t n = 0, cap = mi->eval_cap;
    for (int k = 0; k < mi->threads; k++) {
        const mtree *t = &mi->trees[k];
        const mnode *root = &t->nodes[0];
        for (uint32_t i = 0; i < root->n_children; i++) {
            const mnode *c = &t->nodes[root->first_child + i];
            double sum = t->sums[(size_t)(root->first_child + i) * t->np + me];
            size_t j = 0;
            while (j < n && mi->evals[j].move != c->move)
                j++;
            if (j == n) {
                if (n == cap)
                    continue;
                mi->proven[n] = -1;
                mi->evals[n++] = (pips_move_eval){c->move, 0, 0, false};
            }
            mi->evals[j].visits += c->visits;
            mi->evals[j].value += sum; /* a sum until divided below */
            if (c->proven && c->visits)
                mi->proven[j] = sum / c->visits;
        }
    }
    /* rank: see rank_before */
    for (size_t j = 0; j < n; j++) {
        pips_move_eval *e = &mi->evals[j];
        e->value = e->visits ? e->value / e->visits : 0;
        e->proven = mi->proven[j] >= 0;
        if (e->proven)
            e->value = mi->proven[j];
        mi->rank_class[j] = mi->proven[j] < 0 ? 1 : mi->proven[j] >= 1 - 1e-6 ? 2
                                                    : mi->proven[j] <= 1e-6   ? 0
                                                                              : 1;
    }
    for (size_t i = 1; i < n; i++) {
        pips_move_eval e = mi->evals[i];
        int cls = mi->rank_class[i];
        double pv = mi->proven[i];
        size_t j = i;
        while (j > 0 && rank_before(&e, cls, &mi->evals[j - 1], mi->rank_class[j - 1])) {
            mi->evals[j] = mi->evals[j - 1];
            mi->rank_class[j] = mi->rank_class[j - 1];
            mi->proven[j] = mi->proven[j - 1];
            j--;
        }
        mi->evals[j] = e;
        mi->rank_class[j] = cls;
        mi->proven[j] = pv;
    }
    if (n == 0) {
        pips_fail(err, PIPS_ERR_ILLEGAL, "no legal move: the game is over");
        return 0;
    }
    a->has_last_value = true;
    a->last_value = mi->evals[0].value;
    return n;
}

/* exact=N: solves the n root moves in mi->evals under the opponent model
 * (model_solve.c; the seats opp=adapt has seen search, all others with
 * opp=search or max, none otherwise) and plays, of the moves of the best
 * value, the one the search ranks first. Keeps the search's move when the
 * solve gives up. */
/* prior=P: an assignment of the seats less likely than this is not solved */
#define EXACT_MIN_WEIGHT 0.02

/* prior=P: each other seat's chance of searching (model_searcher_chance);
 * a chance within EXACT_MIN_WEIGHT of 0 or 1 is taken as settled. Returns
 * the number of unsettled seats, listed in open[]. */
static int exact_chances(mcts_impl *mi, int np, int me, double *chance, int *open)
{
    int u = 0;
    for (int p = 0; p < np; p++) {
        chance[p] = p == me ? 0 : model_searcher_chance(mi->exact_solver, p, mi->exact_prior);
        if (chance[p] < EXACT_MIN_WEIGHT)
            chance[p] = 0;
        else if (chance[p] > 1 - EXACT_MIN_WEIGHT)
            chance[p] = 1;
        else
            open[u++] = p;
    }
    return u;
}

static void exact_choice(pips_agent *a, const void *state, size_t n, double start,
                         pips_move *out)
{
    mcts_impl *mi = a->impl;
    const pips_game *g = a->game;
    int me = g->def->to_move(g, state), np = pips_num_players(g);
    bool searcher[PIPS_MAX_PLAYERS];
    double chance[PIPS_MAX_PLAYERS];
    int open[PIPS_MAX_PLAYERS], u = 0;
    for (int p = 0; p < PIPS_MAX_PLAYERS; p++)
        searcher[p] = p != me && (mi->opp == OPP_ADAPT
                                      ? model_is_searcher(mi->exact_solver, p, mi->exact_unknown)
                                  : mi->opp == OPP_SEARCH ? true
                                                          : mi->opp == OPP_MAX);
    if (mi->exact_prior > 0)
        u = exact_chances(mi, np, me, chance, open);
    char seats[16 * PIPS_MAX_PLAYERS + 8] = "";
    for (int p = 0, len = 0; p < np; p++)
        if (mi->exact_prior > 0 ? chance[p] > 0 : searcher[p])
            len += mi->exact_prior > 0 && chance[p] < 1
                       ? snprintf(seats + len, sizeof seats - (size_t)len, "%s%d (%.2f)",
                                  len ? "," : "", p + 1, chance[p])
                       : snprintf(seats + len, sizeof seats - (size_t)len, "%s%d",
                                  len ? "," : "", p + 1);
    for (size_t i = 0; i < n; i++)
        mi->exact_moves[i] = mi->evals[i].move;
    double budget = agent_time_budget(a, mi->time_limit);
    double deadline = budget > 0 ? start + budget * AGENT_TIME_SAFETY : 0;
    model_solver_begin_move(mi->exact_solver);
    /* each assignment of the unsettled seats (bit j: open[j] searches),
     * solved and weighed by its chance; without prior=P the one above */
    double weighed = 0;
    int solved = 0, assignments = 0;
    for (unsigned mask = 0; mask < 1u << u; mask++) {
        double w = 1;
        for (int p = 0; p < np; p++)
            if (mi->exact_prior > 0 && p != me)
                searcher[p] = chance[p] >= 1;
        for (int j = 0; j < u; j++) {
            searcher[open[j]] = mask >> j & 1;
            w *= searcher[open[j]] ? chance[open[j]] : 1 - chance[open[j]];
        }
        if (w < EXACT_MIN_WEIGHT)
            continue;
        assignments++;
        if (!model_solve_moves(mi->exact_solver, state, searcher, mi->exact_moves, n, deadline,
                               u ? mi->exact_values : mi->exact_sum))
            continue;
        for (size_t i = 0; u && i < n; i++) {
            model_value *sum = &mi->exact_sum[i], *v = &mi->exact_values[i];
            if (!solved)
                *sum = (model_value){0, 0, 0};
            sum->win += w * v->win;
            sum->ret += w * v->ret;
            sum->worst += w * v->worst;
        }
        weighed += w;
        solved++;
    }
    if (!solved) {
        snprintf(a->note, sizeof a->note, "exact: gave up (%zu positions); the search chose",
                 model_solver_positions(mi->exact_solver));
        return;
    }
    for (size_t i = 0; u && i < n; i++) {
        mi->exact_sum[i].win /= weighed;
        mi->exact_sum[i].ret /= weighed;
        mi->exact_sum[i].worst /= weighed;
    }
    const model_value *v = mi->exact_sum;
    size_t k = model_solve_best(mi->exact_solver, v, n, mi->exact_best);
    for (size_t i = 0; i < n; i++)
        if (mi->exact_best[i]) {
            *out = mi->evals[i].move;
            snprintf(a->note, sizeof a->note,
                     "exact: a win %.3f (%.3f at worst), return %.3f under the model (%zu of "
                     "%zu moves tie; %zu positions; searchers: %s; %d of %d models solved)",
                     v[i].win, v[i].worst, v[i].ret, k, n,
                     model_solver_positions(mi->exact_solver), *seats ? seats : "none", solved,
                     assignments);
            return;
        }
}

/* pick=K: a searcher's move where its tie matters, by its own search
 * (opp=search's, on the first tree's inner tree, with a fresh rng each
 * call: K calls sample how the searcher breaks the tie). */
static pips_move exact_pick(void *ctx, const void *state, int who)
{
    return inner_choice(ctx, state, who, NULL, 0);
}

/* rerunopp=N: the first round of replies on t->work after the root seat's
 * move (up to its next turn), each other seat's move chosen by its own
 * search of N passes in which the rest follow the greedy policy (a searcher
 * of hard's shape: the outer spec's c, order and leaves, rerunoppdraws=K
 * root samples); the dice sampled. A full arena leaves the rest greedy. */
static void searched_replies(mcts_impl *mi, mtree *t, int me)
{
    const pips_game *g = t->game;
    for (;;) {
        int who = g->def->to_move(g, t->work);
        if (who == PIPS_OVER || who == me)
            return;
        pips_move m;
        if (who == PIPS_CHANCE) {
            size_t n = pips_node_moves(g, t->work, &t->rng, t->playout_buf, t->prob);
            if (n == 0)
                return;
            m = t->playout_buf[pips_sample_chance(&t->rng, t->prob, n)];
        } else {
            m = tree_choice(t, mi->rerun_tree, t->work, who, NULL, 0, mi->rerun_opp, 0);
            if (m == PIPS_MOVE_NONE)
                return;
        }
        g->def->apply(g, t->work, m);
    }
}

/* One rerank playout: move m from state, then the first round's searched
 * replies (rerunopp) and greedy moves to the end, from seed on the first
 * tree's rng; the root seat's score (rerunsolo: 1 for a win alone). */
static double rerank_run(mcts_impl *mi, mtree *t, const void *state, pips_move m, int me,
                         uint64_t seed)
{
    const pips_game *g = t->game;
    double v[PIPS_MAX_PLAYERS];
    pips_rng_derive(&t->rng, seed, 0);
    memcpy(t->work, state, t->state_size);
    g->def->apply(g, t->work, m);
    if (mi->rerun_opp)
        searched_replies(mi, t, me);
    greedy_rollout(t, AGENT_PLAYOUT_MAX_PLIES, mi->rerun_draws);
    if (g->def->to_move(g, t->work) == PIPS_OVER)
        g->def->returns(g, t->work, v);
    else
        for (int p = 0; p < t->np; p++)
            v[p] = 1.0 / t->np; /* the playout cap: no result */
    /* rerunsolo=1: a shared win scores 0, as a draw is no win in a rung */
    return mi->rerun_solo ? (v[me] > 1 - 1e-9) : v[me];
}

/* Whether rerank's move i ranks above move j: a higher sum, ties (within
 * 1e-9) to the search's order. */
static bool rerank_above(const double *sum, size_t i, size_t j)
{
    return sum[i] > sum[j] + 1e-9 || (sum[i] >= sum[j] - 1e-9 && i < j);
}

/* rerank=M: of the search's first M moves (in its order), the one whose R
 * greedy playouts to the end give the root seat the best mean return; run
 * r of every move starts from the same rng. rerunhalve=1: sequential
 * halving instead: round k plays R * 2^k more runs of each move still in,
 * then keeps the better half (rounded up) by summed score, until one move
 * is left; the moves in a round meet the same seeds and every move still
 * in has played the same runs, so sums compare alike. Uses the first
 * tree's scratch (the search is over). */
static pips_move rerank_choice(pips_agent *a, const void *state, size_t n)
{
    mcts_impl *mi = a->impl;
    mtree *t = &mi->trees[0];
    const pips_game *g = a->game;
    int me = g->def->to_move(g, state);
    size_t m = n < (size_t)mi->rerank ? n : (size_t)mi->rerank;
    size_t *in = mi->rerank_in, live = m;
    for (size_t i = 0; i < m; i++) {
        mi->rerank_sum[i] = 0;
        mi->rerank_runs[i] = 0;
        in[i] = i;
    }
    long batch = mi->reruns, played = 0;
    for (;;) {
        for (long r = 0; r < batch; r++) {
            uint64_t seed = pips_rng_next(&a->rng);
            for (size_t j = 0; j < live; j++) {
                mi->rerank_sum[in[j]] += rerank_run(mi, t, state, mi->evals[in[j]].move, me, seed);
                mi->rerank_runs[in[j]]++;
            }
        }
        played += batch * (long)live;
        if (!mi->rerun_halve || live == 1)
            break;
        /* keep the better half, in the search's order */
        size_t keep = (live + 1) / 2, kept = 0;
        for (size_t j = 0; j < live; j++) {
            size_t above = 0;
            for (size_t k = 0; k < live; k++)
                above += k != j && rerank_above(mi->rerank_sum, in[k], in[j]);
            if (above < keep)
                in[kept++] = in[j];
        }
        live = kept;
        if (live == 1)
            break;
        batch *= 2;
    }
    size_t best = in[0];
    for (size_t j = 1; j < live; j++)
        if (mi->rerank_sum[in[j]] > mi->rerank_sum[best] + 1e-9)
            best = in[j];
    if (mi->rerun_halve)
        snprintf(a->note, sizeof a->note,
                 "rerank: the search's move %zu of %zu, %.3f a playout over %ld runs (its "
                 "first %.3f over %ld; %ld playouts, halving)",
                 best + 1, m, mi->rerank_sum[best] / mi->rerank_runs[best],
                 mi->rerank_runs[best], mi->rerank_sum[0] / mi->rerank_runs[0],
                 mi->rerank_runs[0], played);
    else
        snprintf(a->note, sizeof a->note,
                 "rerank: the search's move %zu of %zu, %.3f a playout (its first %.3f; %d each)",
                 best + 1, m, mi->rerank_sum[best] / mi->reruns,
                 mi->rerank_sum[0] / mi->reruns, mi->reruns);
    return mi->evals[best].move;
}

static bool mcts_choose(pips_agent *a, const void *state, pips_move *out, pips_error *err)
{
    mcts_impl *mi = a->impl;
    double start = pips_now();
    size_t n = mcts_search(a, state, err);
    if (!n)
        return false;
    *out = mi->evals[0].move;
    /* a move the search proved a win stands: greedy playouts, the root
     * seat's own moves greedy too, could throw it away */
    if (mi->rerank > 1 && n > 1 && mi->rank_class[0] != 2)
        *out = rerank_choice(a, state, n);
    if (mi->exact_solver)
        exact_choice(a, state, n, start, out);
    return true;
}

static size_t mcts_analyze(pips_agent *a, const void *state, pips_move_eval *out, size_t max,
                           pips_error *err)
{
    mcts_impl *mi = a->impl;
    size_t n = mcts_search(a, state, err);
    /* analysis lists by value (the choice above ranks by visits); proven
     * values are exact, so a proven win leads and a proven loss trails */
    agent_sort_evals(mi->evals, n);
    if (n > max)
        n = max;
    memcpy(out, mi->evals, n * sizeof *out);
    return n;
}

/* Re-roots a tree at the child reached by m, copying that subtree into a
 * fresh arena (breadth first, children kept contiguous). */
static void reroot(mtree *t, const void *state_before, pips_move m)
{
    if (!t->valid)
        return;
    const pips_game *g = t->game;
    if (memcmp(t->root_state, state_before, t->state_size) != 0 || !t->nodes[0].expanded) {
        t->valid = false;
        return;
    }
    const mnode *root = &t->nodes[0];
    uint32_t keep = NODE_NONE;
    for (uint32_t i = 0; i < root->n_children; i++)
        if (t->nodes[root->first_child + i].move == m)
            keep = root->first_child + i;
    if (keep == NODE_NONE) {
        t->valid = false;
        return;
    }
    const pips_allocator *al = g->alloc;
    size_t np = (size_t)t->np;
    /* count the subtree to size the new arena */
    mnode *nodes = pips_malloc(al, t->count * sizeof *nodes);
    float *sums = pips_malloc(al, t->count * np * sizeof *sums);
    uint32_t *from = pips_malloc(al, t->count * sizeof *from);
    if (!nodes || !sums || !from) {
        pips_free(al, nodes);
        pips_free(al, sums);
        pips_free(al, from);
        t->valid = false;
        return;
    }
    size_t count = 1;
    from[0] = keep;
    for (size_t i = 0; i < count; i++) {
        const mnode *old = &t->nodes[from[i]];
        nodes[i] = *old;
        memcpy(sums + i * np, t->sums + (size_t)from[i] * np, np * sizeof *sums);
        if (old->expanded && old->n_children) {
            nodes[i].first_child = (uint32_t)count;
            for (uint32_t k = 0; k < old->n_children; k++)
                from[count++] = old->first_child + k;
        }
    }
    nodes[0].move = PIPS_MOVE_NONE;
    pips_free(al, t->nodes);
    pips_free(al, t->sums);
    pips_free(al, from);
    t->nodes = nodes;
    t->sums = sums;
    t->cap = t->count;
    t->count = count;
    g->def->apply(g, t->root_state, m);
}

/* opp=adapt: seat who, to move in state, played m. A move the greedy policy
 * would not play (its prior below the best of the seat's moves) marks the
 * seat a searcher for the rest of the game: its first-round reply nodes are
 * then chosen by its own search (opp=search's), deeper it stays greedy, and
 * the trees, built on the greedy model, are dropped. */
static void adapt_observe(mcts_impl *mi, const void *state, pips_move m)
{
    mtree *t = &mi->trees[0]; /* its scratch; its rng is re-drawn at every search */
    const pips_game *g = t->game;
    int who = g->def->to_move(g, state);
    if (who < 0 || mi->searcher[who])
        return;
    double played = child_prior(t, state, m, who);
    size_t n = pips_node_moves(g, state, &t->rng, t->moves, t->prob);
    for (size_t i = 0; i < n; i++)
        if (child_prior(t, state, t->moves[i], who) > played + 1e-6) {
            mi->searcher[who] = true;
            for (int k = 0; k < mi->threads; k++)
                mi->trees[k].valid = false;
            return;
        }
}

static void mcts_observe(pips_agent *a, const void *state_before, pips_move m)
{
    mcts_impl *mi = a->impl;
    if (mi->opp == OPP_ADAPT && a->game->def->to_move(a->game, state_before) != mi->trees[0].root_seat)
        adapt_observe(mi, state_before, m);
    if (mi->exact_solver && mi->opp == OPP_ADAPT &&
        a->game->def->to_move(a->game, state_before) != mi->trees[0].root_seat) {
        if (mi->exact_observe) /* the searches' rngs, drawn from the agent's as a search's are */
            pips_rng_derive(&mi->trees[0].rng, pips_rng_next(&a->rng), 0);
        model_observe(mi->exact_solver, state_before, m);
    }
    for (int k = 0; k < mi->threads; k++) {
        if (mi->reuse)
            reroot(&mi->trees[k], state_before, m);
        else
            mi->trees[k].valid = false;
    }
}

static void tree_free(const pips_allocator *al, mtree *t)
{
    if (t->inner) {
        tree_free(al, t->inner);
        pips_free(al, t->inner);
    }
    pips_free(al, t->nodes);
    pips_free(al, t->sums);
    pips_free(al, t->root_state);
    pips_free(al, t->work);
    pips_free(al, t->moves);
    pips_free(al, t->playout_buf);
    pips_free(al, t->prob);
    pips_free(al, t->path);
    pips_free(al, t->order);
    pips_free(al, t->child_state);
    pips_free(al, t->weights);
    pips_free(al, t->pbuf);
    pips_free(al, t->sample_w);
    pips_free(al, t->canon);
    pips_free(al, t->canon_hash);
    pips_free(al, t->hist);
    pips_free(al, t->ties);
}

static void mcts_destroy(pips_agent *a)
{
    mcts_impl *mi = a->impl;
    if (!mi)
        return;
    const pips_allocator *al = a->game->alloc;
    for (int k = 0; k < MCTS_MAX_THREADS; k++)
        tree_free(al, &mi->trees[k]);
    model_solver_free(mi->exact_solver);
    pips_free(al, mi->exact_moves);
    pips_free(al, mi->exact_values);
    pips_free(al, mi->exact_sum);
    pips_free(al, mi->exact_best);
    pips_free(al, mi->evals);
    pips_free(al, mi->proven);
    pips_free(al, mi->rank_class);
    pips_free(al, mi->rerank_sum);
    pips_free(al, mi->rerank_runs);
    pips_free(al, mi->rerank_in);
    if (mi->rerun_tree) {
        tree_free(al, mi->rerun_tree);
        pips_free(al, mi->rerun_tree);
    }
    pips_free(al, mi);
}

static bool tree_init(mtree *t, const pips_game *g, const mcts_impl *mi)
{
    const pips_allocator *al = g->alloc;
    t->game = g;
    t->np = pips_num_players(g);
    t->state_size = g->def->state_size;
    t->draws = mi->draws;
    t->max_depth = mi->max_depth;
    t->rollout = mi->rollout;
    t->max_moves = pips_max_moves(g) * (size_t)t->draws; /* the root's scratch too */
    t->max_nodes = mi->max_nodes;
    t->c = mi->c;
    t->eval_leaves = mi->eval_leaves;
    t->order_mode = mi->order_mode;
    t->opp = mi->opp;
    t->temp = mi->temp;
    t->ph = mi->ph;
    t->topk = mi->topk;
    t->root_seat = -1;
    t->settle = mi->settle;
    t->stratify = mi->stratify;
    t->child_state = pips_calloc(al, 1, t->state_size);
    t->weights = pips_calloc(al, t->max_moves, sizeof *t->weights);
    t->pbuf = pips_calloc(al, t->max_moves, sizeof *t->pbuf);
    t->sample_w = pips_calloc(al, t->max_moves, sizeof *t->sample_w);
    if (mi->ph > 0)
        t->hist = pips_calloc(al, (size_t)1 << HIST_BITS, sizeof *t->hist);
    /* model playouts under the greedy policy (topk's too) where the moves
     * are a function of the position: their ties kept by position (out of
     * memory, none: the table saves time, it changes no move) */
    if (mi->opp != OPP_MAX && mi->opp != OPP_SOFTMAX && g->def->hash &&
        !(g->def->flags & PIPS_GAME_NOT_ENUMERABLE))
        t->ties = pips_calloc(al, (size_t)1 << TIES_BITS, sizeof *t->ties);
    t->uniform = mi->uniform;
    t->widen = mi->widen;
    t->widen_base = mi->widen_base;
    t->order = pips_calloc(al, t->max_moves, sizeof *t->order);
    t->root_state = pips_calloc(al, 1, t->state_size);
    t->work = pips_calloc(al, 1, t->state_size);
    t->moves = pips_calloc(al, t->max_moves, sizeof *t->moves);
    t->playout_buf = pips_calloc(al, t->max_moves, sizeof *t->playout_buf);
    t->prob = pips_calloc(al, t->max_moves, sizeof *t->prob);
    t->path_cap = 256;
    t->path = pips_calloc(al, t->path_cap, sizeof *t->path);
    t->inner_iters = mi->inner_iters;
    t->inner_evals = (uint64_t)mi->inner_evals;
    t->inner_runs = mi->inner_runs;
    t->sample_k = mi->sample_k;
    t->sym = mi->sym;
    if (t->sym) {
        t->canon = pips_calloc(al, 1, t->state_size);
        t->canon_hash = pips_calloc(al, t->max_moves, sizeof *t->canon_hash);
        if (!t->canon || !t->canon_hash)
            return false;
    }
    if (mi->opp == OPP_SEARCH || mi->opp == OPP_ADAPT) { /* the opponents' searches: greedy models, no nesting */
        mcts_impl level1 = *mi;
        level1.opp = OPP_GREEDY;
        level1.draws = 1;
        level1.max_depth = 0;
        level1.rollout = 0;
        level1.settle = mi->inner_settle; /* as the searcher modelled does */
        level1.ph = 0;
        t->inner = pips_calloc(al, 1, sizeof *t->inner);
        if (!t->inner || !tree_init(t->inner, g, &level1))
            return false;
    }
    return t->order && t->child_state && t->weights && t->pbuf && t->sample_w && (mi->ph == 0 || t->hist) &&
           t->root_state && t->work && t->moves && t->playout_buf && t->prob && t->path &&
           tree_reserve(t, 1);
}

bool agent_mcts_init(pips_agent *a, const char *params, pips_error *err)
{
    const pips_game *g = a->game;
    long iters = 0, threads = 1, max_nodes = 4000000, reuse = 1, draws = 1, max_depth = 0;
    long rollout = 0, rerank = 0, reruns = 16, rerun_draws = 1, rerun_solo = 0;
    long rerun_opp = 0, rerun_opp_draws = 1, rerun_halve = 0;
    int order_mode = ORDER_SHUFFLE, opp = OPP_MAX;
    double temp = 0.05, ph = 0, exact_worst = 0;
    long settle = 0, topk = 2, inner_iters = 300, exact = 0, pick = 0, inner_settle = 0;
    long pick_plies = 0, observe_picks = 0;
    long eval_limit = 0, inner_evals = 0, inner_runs = 1, sample_k = 0, sym = 0;
    bool unknown_search = false, stratify = false;
    /* options that shape one opponent model or the exact solve: given without it, refused */
    const char *search_only = NULL, *topk_only = NULL, *exact_only = NULL;
    double prior = 0;
    bool has_eval = g->def->evaluate != NULL;
    int leaf = has_eval ? 1 : 0; /* 0 playout, 1 evaluate */
    bool uniform = false;
    double time = 0, c = 1.0, widen = 0, widen_base = 2;
    char key[AGENT_KEY_MAX], value[AGENT_VALUE_MAX];
    bool bad;
    const char *p = params;
    while (agent_param_next(&p, "mcts", key, value, &bad, err)) {
        bool ok;
        if (!strcmp(key, "iters"))
            ok = agent_param_long("mcts", key, value, 1, 1000000000L, &iters, err);
        else if (!strcmp(key, "time"))
            ok = agent_param_double("mcts", key, value, 0.001, 86400, &time, err);
        else if (!strcmp(key, "evals"))
            ok = agent_param_long("mcts", key, value, 1, 2000000000L, &eval_limit, err);
        else if (!strcmp(key, "threads"))
            ok = agent_param_long("mcts", key, value, 1, MCTS_MAX_THREADS, &threads, err);
        else if (!strcmp(key, "c"))
            ok = agent_param_double("mcts", key, value, 0, 100, &c, err);
        else if (!strcmp(key, "widen"))
            ok = agent_param_double("mcts", key, value, 0, 1, &widen, err);
        else if (!strcmp(key, "widen_base"))
            ok = agent_param_double("mcts", key, value, 1, 1000, &widen_base, err);
        else if (!strcmp(key, "nodes"))
            ok = agent_param_long("mcts", key, value, 1000, 2000000000L, &max_nodes, err);
        else if (!strcmp(key, "reuse"))
            ok = agent_param_long("mcts", key, value, 0, 1, &reuse, err);
        else if (!strcmp(key, "draws"))
            ok = agent_param_long("mcts", key, value, 1, 64, &draws, err);
        else if (!strcmp(key, "treedepth"))
            ok = agent_param_long("mcts", key, value, 0, 64, &max_depth, err);
        else if (!strcmp(key, "rollout"))
            ok = agent_param_long("mcts", key, value, 0, 1000, &rollout, err);
        else if (!strcmp(key, "rerank")) {
            ok = agent_param_long("mcts", key, value, 0, 64, &rerank, err);
            if (ok && rerank == 1)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "mcts: rerank='1' must be 0 (off) or 2..64 moves");
        }
        else if (!strcmp(key, "reruns"))
            ok = agent_param_long("mcts", key, value, 1, 100000, &reruns, err);
        else if (!strcmp(key, "rerundraws"))
            ok = agent_param_long("mcts", key, value, 1, 64, &rerun_draws, err);
        else if (!strcmp(key, "rerunsolo"))
            ok = agent_param_long("mcts", key, value, 0, 1, &rerun_solo, err);
        else if (!strcmp(key, "rerunhalve"))
            ok = agent_param_long("mcts", key, value, 0, 1, &rerun_halve, err);
        else if (!strcmp(key, "rerunopp"))
            ok = agent_param_long("mcts", key, value, 0, 100000, &rerun_opp, err);
        else if (!strcmp(key, "rerunoppdraws"))
            ok = agent_param_long("mcts", key, value, 1, 64, &rerun_opp_draws, err);
        else if (!strcmp(key, "order")) {
            ok = true;
            if (!strcmp(value, "0") || !strcmp(value, "1"))
                order_mode = value[0] == '1' ? ORDER_HOOK : ORDER_SHUFFLE;
            else if (!strcmp(value, "eval") && has_eval)
                order_mode = ORDER_EVAL;
            else
                return pips_fail(err, PIPS_ERR_ARG,
                                 !strcmp(value, "eval")
                                     ? "mcts: order=eval needs the game's evaluate hook"
                                     : "mcts: order='%s' must be 0, 1 or eval",
                                 value);
        } else if (!strcmp(key, "opp")) {
            ok = true;
            if (!strcmp(value, "max"))
                opp = OPP_MAX;
            else if (!strcmp(value, "greedy") || !strcmp(value, "softmax"))
                opp = !strcmp(value, "greedy") ? OPP_GREEDY : OPP_SOFTMAX;
            else if (!strcmp(value, "topk") || !strcmp(value, "adapt"))
                opp = !strcmp(value, "topk") ? OPP_TOPK : OPP_ADAPT;
            else if (!strcmp(value, "search"))
                opp = OPP_SEARCH;
            else
                return pips_fail(err, PIPS_ERR_ARG,
                                 "mcts: opp='%s' must be max, greedy, softmax, topk, adapt or "
                                 "search",
                                 value);
        } else if (!strcmp(key, "oppiters")) {
            search_only = "oppiters";
            ok = agent_param_long("mcts", key, value, 1, 10000000L, &inner_iters, err);
        } else if (!strcmp(key, "oppevals")) {
            search_only = "oppevals";
            ok = agent_param_long("mcts", key, value, 0, 2000000000L, &inner_evals, err);
        } else if (!strcmp(key, "oppruns")) {
            search_only = "oppruns";
            ok = agent_param_long("mcts", key, value, 1, 64, &inner_runs, err);
        } else if (!strcmp(key, "sym")) {
            ok = agent_param_long("mcts", key, value, 0, 2, &sym, err);
        } else if (!strcmp(key, "oppsample")) {
            ok = agent_param_long("mcts", key, value, 0, 100000, &sample_k, err);
        } else if (!strcmp(key, "k")) {
            topk_only = "k";
            ok = agent_param_long("mcts", key, value, 1, 1000, &topk, err);
        } else if (!strcmp(key, "exact")) {
            ok = agent_param_long("mcts", key, value, 0, 100000000L, &exact, err);
        } else if (!strcmp(key, "unknown")) {
            exact_only = "unknown";
            ok = !strcmp(value, "greedy") || !strcmp(value, "search");
            if (!ok)
                return pips_fail(err, PIPS_ERR_ARG, "mcts: unknown='%s' must be greedy or search",
                                 value);
            unknown_search = !strcmp(value, "search");
        } else if (!strcmp(key, "prior")) {
            ok = agent_param_double("mcts", key, value, 0, 0.99, &prior, err);
        } else if (!strcmp(key, "pick")) {
            ok = agent_param_long("mcts", key, value, 0, 64, &pick, err);
        } else if (!strcmp(key, "pickply")) {
            ok = agent_param_long("mcts", key, value, 0, 64, &pick_plies, err);
        } else if (!strcmp(key, "pickobs")) {
            ok = agent_param_long("mcts", key, value, 0, 64, &observe_picks, err);
        } else if (!strcmp(key, "worst")) {
            exact_only = "worst";
            ok = agent_param_double("mcts", key, value, 0, 1, &exact_worst, err);
        } else if (!strcmp(key, "chance")) {
            ok = !strcmp(value, "sample") || !strcmp(value, "stratify");
            if (!ok)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "mcts: chance='%s' must be sample or stratify", value);
            stratify = !strcmp(value, "stratify");
        } else if (!strcmp(key, "settle"))
            ok = agent_param_long("mcts", key, value, 0, 1, &settle, err);
        else if (!strcmp(key, "oppsettle")) {
            search_only = "oppsettle";
            ok = agent_param_long("mcts", key, value, 0, 1, &inner_settle, err);
        }
        else if (!strcmp(key, "temp"))
            ok = agent_param_double("mcts", key, value, 0.001, 100, &temp, err);
        else if (!strcmp(key, "ph"))
            ok = agent_param_double("mcts", key, value, 0, 100, &ph, err);
        else if (!strcmp(key, "leaf")) {
            ok = true;
            if (!strcmp(value, "playout"))
                leaf = 0;
            else if (!strcmp(value, "eval") && has_eval)
                leaf = 1;
            else if (!strcmp(value, "eval"))
                return pips_fail(err, PIPS_ERR_ARG,
                                 "mcts: leaf=eval needs the game's evaluate hook, which %s "
                                 "lacks",
                                 g->def->name);
            else
                return pips_fail(err, PIPS_ERR_ARG,
                                 "mcts: leaf='%s' must be playout or eval", value);
        } else if (!strcmp(key, "playout")) {
            ok = true;
            if (!strcmp(value, "policy") || !strcmp(value, "uniform"))
                uniform = !strcmp(value, "uniform");
            else
                return pips_fail(err, PIPS_ERR_ARG,
                                 "mcts: playout='%s' must be policy or uniform", value);
        } else
            return pips_fail(err, PIPS_ERR_ARG,
                             "mcts: unknown parameter '%s' (iters, time, evals, threads, c, "
                             "leaf, playout, order, opp, temp, k, oppiters, oppevals, oppruns, oppsample, "
                             "oppsettle, exact, pick, pickply, pickobs, worst, unknown, prior, "
                             "settle, chance, ph, widen, widen_base, nodes, reuse, draws, "
                             "treedepth, rollout, rerank, reruns, rerundraws, rerunsolo, rerunhalve, "
                             "rerunopp, rerunoppdraws, sym)",
                             key);
        if (!ok)
            return false;
    }
    if (bad)
        return false;
    if (pick && (!exact || (opp != OPP_ADAPT && opp != OPP_SEARCH)))
        return pips_fail(err, PIPS_ERR_ARG,
                         "mcts: pick=%ld needs exact=N and opp=adapt or opp=search", pick);
    if (pick_plies && !pick)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: pickply=%ld needs pick=K", pick_plies);
    if (observe_picks && (!pick || opp != OPP_ADAPT))
        return pips_fail(err, PIPS_ERR_ARG, "mcts: pickobs=%ld needs pick=K and opp=adapt",
                         observe_picks);
    if (prior > 0 && (!exact || opp != OPP_ADAPT || unknown_search))
        return pips_fail(err, PIPS_ERR_ARG,
                         "mcts: prior=%g needs exact=N and opp=adapt, and not unknown=search",
                         prior);
    if (rollout && leaf != 1)
        return pips_fail(err, PIPS_ERR_ARG,
                         "mcts: rollout=%ld needs evaluated leaves (leaf=eval)", rollout);
    if ((rerun_draws != 1 || rerun_solo || rerun_opp || rerun_halve) && !rerank)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: rerundraws, rerunsolo, rerunopp and "
                         "rerunhalve shape rerank's playouts; they need rerank=M");
    if (rerun_opp_draws != 1 && !rerun_opp)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: rerunoppdraws=%ld shapes rerunopp's "
                         "searches; it needs rerunopp=N", rerun_opp_draws);
    if (sample_k && opp != OPP_SEARCH && opp != OPP_ADAPT)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: oppsample=%ld models the seats that search; "
                         "it needs opp=search or opp=adapt", sample_k);
    if (search_only && opp != OPP_SEARCH && opp != OPP_ADAPT)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: %s shapes the searches that model the other "
                         "seats; it needs opp=search or opp=adapt", search_only);
    if (topk_only && opp != OPP_TOPK)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: k sets how many moves opp=topk weighs; it "
                         "needs opp=topk");
    if (exact_only && !exact)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: %s shapes the exact solve; it needs exact=N",
                         exact_only);
    if (sym && !(g->def->canonical && g->def->hash))
        return pips_fail(err, PIPS_ERR_ARG, "mcts: sym=%ld needs the game's canonical form (its "
                         "symmetries), which %s lacks", sym, g->def->name);
    if (rerank && exact)
        return pips_fail(err, PIPS_ERR_ARG, "mcts: rerank=%ld and exact=%ld are two final "
                         "choices; give one", rerank, exact);
    if (!iters && time == 0)
        iters = 1000;
    const pips_allocator *al = g->alloc;
    mcts_impl *mi = pips_calloc(al, 1, sizeof *mi);
    if (!mi)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    a->impl = mi;
    a->destroy = mcts_destroy;
    mi->iters = iters;
    mi->time_limit = time;
    mi->eval_limit = eval_limit;
    mi->threads = (int)threads;
    mi->c = c;
    mi->max_nodes = (size_t)max_nodes;
    mi->reuse = reuse != 0;
    mi->eval_leaves = leaf == 1;
    mi->order_mode = order_mode;
    mi->opp = opp;
    mi->temp = temp;
    mi->ph = ph;
    mi->topk = (int)topk;
    mi->inner_iters = inner_iters;
    mi->inner_evals = inner_evals;
    mi->inner_runs = (int)inner_runs;
    mi->sample_k = (int)sample_k;
    mi->sym = (int)sym;
    mi->settle = settle && opp != OPP_MAX && leaf == 1;
    mi->inner_settle = inner_settle && (opp == OPP_SEARCH || opp == OPP_ADAPT) && leaf == 1;
    mi->uniform = uniform;
    mi->stratify = stratify;
    mi->widen = widen;
    mi->widen_base = widen_base;
    mi->draws = (int)draws;
    mi->max_depth = (int)max_depth;
    mi->rollout = (int)rollout;
    mi->rerank = (int)rerank;
    mi->reruns = (int)reruns;
    mi->rerun_draws = (int)rerun_draws;
    mi->rerun_solo = rerun_solo;
    mi->rerun_halve = rerun_halve;
    mi->rerun_opp = rerun_opp;
    mi->rerun_opp_draws = (int)rerun_opp_draws;
    mi->eval_cap = 2 * (size_t)draws * pips_max_moves(g);
    if (g->def->flags & PIPS_GAME_NOT_ENUMERABLE) /* the root merges K samples */
        a->analyze_max = (size_t)draws * pips_max_moves(g);
    for (int k = 0; k < mi->threads; k++)
        if (!tree_init(&mi->trees[k], g, mi))
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for the search tree");
    mi->evals = pips_calloc(al, mi->eval_cap, sizeof *mi->evals);
    mi->proven = pips_calloc(al, mi->eval_cap, sizeof *mi->proven);
    mi->rank_class = pips_calloc(al, mi->eval_cap, sizeof *mi->rank_class);
    if (rerank) {
        mi->rerank_sum = pips_calloc(al, (size_t)rerank, sizeof *mi->rerank_sum);
        mi->rerank_runs = pips_calloc(al, (size_t)rerank, sizeof *mi->rerank_runs);
        mi->rerank_in = pips_calloc(al, (size_t)rerank, sizeof *mi->rerank_in);
    }
    if (!mi->evals || !mi->proven || !mi->rank_class ||
        (rerank && (!mi->rerank_sum || !mi->rerank_runs || !mi->rerank_in)))
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory");
    if (rerun_opp) { /* the reply searches: hard's shape, the others greedy */
        mcts_impl replier = *mi;
        replier.opp = OPP_GREEDY;
        replier.draws = (int)rerun_opp_draws;
        replier.max_depth = 0;
        replier.rollout = 0;
        replier.settle = false;
        replier.ph = 0;
        replier.sample_k = 0;
        replier.sym = 0;
        mi->rerun_tree = pips_calloc(al, 1, sizeof *mi->rerun_tree);
        if (!mi->rerun_tree || !tree_init(mi->rerun_tree, g, &replier))
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for rerunopp=%ld", rerun_opp);
    }
    mi->exact = exact;
    if (exact > 0) {
        size_t cap = mi->eval_cap;
        mi->exact_solver = model_solver_new(g, (size_t)exact, exact_worst);
        mi->exact_unknown = unknown_search;
        mi->exact_prior = prior;
        mi->exact_sum = pips_calloc(al, cap, sizeof *mi->exact_sum);
        mi->exact_moves = pips_calloc(al, cap, sizeof *mi->exact_moves);
        mi->exact_values = pips_calloc(al, cap, sizeof *mi->exact_values);
        mi->exact_best = pips_calloc(al, cap, sizeof *mi->exact_best);
        if (!mi->exact_solver || !mi->exact_moves || !mi->exact_values || !mi->exact_best ||
            !mi->exact_sum)
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for exact=%ld", exact);
        if (pick && !model_solver_set_pick(mi->exact_solver, exact_pick, &mi->trees[0], (int)pick,
                                           (int)pick_plies))
            return pips_fail(err, PIPS_ERR_NOMEM, "out of memory for pick=%ld", pick);
        model_solver_set_observe_picks(mi->exact_solver, (int)observe_picks);
        mi->exact_observe = observe_picks > 0;
    }
    a->choose = mcts_choose;
    a->analyze = mcts_analyze;
    a->observe = mcts_observe;
    snprintf(a->spec, sizeof a->spec, "mcts");
    if (iters)
        agent_spec_add(a, "iters=%ld", iters);
    if (time > 0)
        agent_spec_add(a, "time=%g", time);
    if (eval_limit)
        agent_spec_add(a, "evals=%ld", eval_limit);
    if (threads != 1)
        agent_spec_add(a, "threads=%ld", threads);
    if (c != 1.0)
        agent_spec_add(a, "c=%g", c);
    if (widen > 0)
        agent_spec_add(a, "widen=%g", widen);
    if (widen > 0 && widen_base != 2)
        agent_spec_add(a, "widen_base=%g", widen_base);
    if (max_nodes != 4000000)
        agent_spec_add(a, "nodes=%ld", max_nodes);
    if (!reuse)
        agent_spec_add(a, "reuse=0");
    if (draws != 1)
        agent_spec_add(a, "draws=%ld", draws);
    if (max_depth)
        agent_spec_add(a, "treedepth=%ld", max_depth);
    if (rollout)
        agent_spec_add(a, "rollout=%ld", rollout);
    if (rerank)
        agent_spec_add(a, "rerank=%ld", rerank);
    if (rerank && reruns != 16)
        agent_spec_add(a, "reruns=%ld", reruns);
    if (rerank && rerun_draws != 1)
        agent_spec_add(a, "rerundraws=%ld", rerun_draws);
    if (rerank && rerun_solo)
        agent_spec_add(a, "rerunsolo=1");
    if (rerun_halve)
        agent_spec_add(a, "rerunhalve=1");
    if (rerun_opp)
        agent_spec_add(a, "rerunopp=%ld", rerun_opp);
    if (rerun_opp_draws != 1)
        agent_spec_add(a, "rerunoppdraws=%ld", rerun_opp_draws);
    if (order_mode != ORDER_SHUFFLE)
        agent_spec_add(a, "order=%s", order_mode == ORDER_HOOK ? "1" : "eval");
    if (opp != OPP_MAX)
        agent_spec_add(a, "opp=%s",
                       opp == OPP_GREEDY    ? "greedy"
                       : opp == OPP_SOFTMAX ? "softmax"
                       : opp == OPP_TOPK    ? "topk"
                       : opp == OPP_ADAPT   ? "adapt"
                                            : "search");
    if ((opp == OPP_SEARCH || opp == OPP_ADAPT) && inner_iters != 300)
        agent_spec_add(a, "oppiters=%ld", inner_iters);
    if ((opp == OPP_SEARCH || opp == OPP_ADAPT) && inner_evals)
        agent_spec_add(a, "oppevals=%ld", inner_evals);
    if ((opp == OPP_SEARCH || opp == OPP_ADAPT) && inner_runs != 1)
        agent_spec_add(a, "oppruns=%ld", inner_runs);
    if (mi->sample_k)
        agent_spec_add(a, "oppsample=%d", mi->sample_k);
    if (mi->inner_settle)
        agent_spec_add(a, "oppsettle=1");
    if (opp == OPP_TOPK && topk != 2)
        agent_spec_add(a, "k=%ld", topk);
    if (opp == OPP_SOFTMAX && temp != 0.05)
        agent_spec_add(a, "temp=%g", temp);
    if (exact > 0)
        agent_spec_add(a, "exact=%ld", exact);
    if (pick)
        agent_spec_add(a, "pick=%ld", pick);
    if (pick_plies)
        agent_spec_add(a, "pickply=%ld", pick_plies);
    if (observe_picks)
        agent_spec_add(a, "pickobs=%ld", observe_picks);
    if (exact > 0 && unknown_search)
        agent_spec_add(a, "unknown=search");
    if (prior > 0)
        agent_spec_add(a, "prior=%g", prior);
    if (exact > 0 && exact_worst > 0)
        agent_spec_add(a, "worst=%g", exact_worst);
    if (mi->settle)
        agent_spec_add(a, "settle=1");
    if (mi->sym)
        agent_spec_add(a, "sym=%d", mi->sym);
    if (stratify)
        agent_spec_add(a, "chance=stratify");
    if (ph > 0)
        agent_spec_add(a, "ph=%g", ph);
    if (has_eval && leaf == 0)
        agent_spec_add(a, "leaf=playout");
    if (uniform)
        agent_spec_add(a, "playout=uniform");
    return true;
}
