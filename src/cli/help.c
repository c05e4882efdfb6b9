/*
 * help.c — the table behind every help text of `pips`, the man page and the
 * shell completion (see help.h), the printers of --help, and the shared
 * --key=value argument splitter. Descriptions are wrapped by hand at 78
 * columns so --help reads well; the man page lets roff refill them.
 */
#include "cli/help.h"

#include <stdbool.h>
#include <string.h>

#define END_OPTS {NULL, NULL, NULL}
/* Rule scripts (docs/lua.md): main.c turns these into the options rules=,
 * lua_steps= and lua_mb= of the game. */
#define PIPS_LUA_OPTS                                                                       \
    {"--rules", "FILE.lua", "apply a Lua rule script to the game (docs/lua.md)"},            \
    {"--lua-steps", "N", "instructions allowed per call into a script (default 10000000)"}, \
    {"--lua-mb", "MB", "memory of each Lua state, in MiB (default 64)"},

static const cli_opt_doc no_opts[] = {END_OPTS};

static const cli_opt_doc perft_opts[] = {
    {"--opt", "KEY=VALUE", "a game option (repeatable); 'pips list' shows them"},
    {"--divide", NULL, "list the count below each first move"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc solve_opts[] = {
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--threads", "N", "worker threads, 1..64 (default 2)"},
    {"--table-mb", "MB", "the tables' memory budget in MiB, 1..1048576 (default: half the "
                         "available memory, at most 11264)"},
    {"--time", "S", "give up after S seconds"},
    {"--state", "TEXT", "solve this position (the game's state text) and every move from it"},
    {"--record", "FILE", "with --ply: solve the position after N moves of a record"},
    {"--ply", "N", "with --record: how many of the record's moves to play first"},
    {"--best", NULL, "with --state or --record: the position's value and one winning move "
                     "only"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc play_opts[] = {
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--seat", "SPEC", "who plays the next seat: 'human' or an agent spec (repeatable)"},
    {"--seed", "N", "seed of the dice and of the agents (default 1)"},
    {"--record", "FILE", "write the game record (JSON) to FILE, after every move"},
    {"--force", NULL, "let --record overwrite a file that exists"},
    {"--resume", "FILE", "continue the unfinished game recorded in FILE (and keep writing it)"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc analyze_opts[] = {
    {"--state", "TEXT", "the position, in the game's state text"},
    {"--record", "FILE", "take the position from a game record instead"},
    {"--ply", "N", "with --record: the position after the first N moves (default: the last)"},
    {"--opt", "KEY=VALUE", "a game option (repeatable; with --record the record's options apply)"},
    {"--agent", "SPEC", "the agent that ranks the moves (default 'hard')"},
    {"--seed", "N", "the agent's seed (default 1)"},
    {"--top", "K", "print only the K best moves"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc playtest_opts[] = {
    {"--seats", "A,B,...", "one agent spec per seat, or one spec for every seat"},
    {"--games", "N", "games per variant, 1..100000000 (default 100)"},
    {"--seed", "S", "seed of the whole run (default 1)"},
    {"--threads", "T", "worker threads, 1..64 (default 1)"},
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--vary", "KEY=V1,V2,...", "play every variant of this option (repeatable: the grid)"},
    {"--vs-opt", "KEY=VALUE", "replay the same seeds with this option changed (repeatable)"},
    {"--seatings", "rotate|all|fixed", "rotate seats (default), play every seating, or fix them"},
    {"--fixed-seats", NULL, "keep every agent in its seat instead of rotating"},
    {"--drama", "on|off", "measure drama and tension (default on; off is faster)"},
    {"--drama-every", "K",
     "measure drama only in games 0, K, 2K, ... (1: every game; default: every game up to "
     "1000 a variant, beyond that at most 1000 spread evenly)"},
    {"--resume", "DIR", "finish a run stopped with Ctrl-C that wrote DIR (same command)"},
    {"--progress", "auto|bar|lines|off",
     "progress with the time left on stderr: a bar when it is a terminal (auto, the default), "
     "always the bar, a line at each tenth of the run and at least once a minute, or none"},
    {"--out", "DIR", "write report.md, report.json, sweep.csv and the plots into DIR"},
    {"--records", NULL, "with --out: also write every game's record into DIR/records"},
    {"--threshold", "X", "decisiveness threshold, between 0.5 and 1 (default 0.8)"},
    {"--exact-seconds", "S", "processor time for solving a variant exactly (default 10, 0 = off)"},
    {"--exact-mb", "M", "memory for solving a variant exactly, in MiB (default 256)"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc serve_opts[] = {
    {"--port", "PORT", "TCP port, 0..65535; 0 picks a free one (default 8080)"},
    {"--bind", "ADDR", "address to listen on (default 127.0.0.1)"},
    {"--db", "PATH", "the SQLite database of games (':memory:' keeps none)"},
    {"--web", "DIR",
     "the web UI's files (default: PREFIX/share/pips/web for an installed pips, else the "
     "source tree's web/)"},
    {"--ai-threads", "N", "threads thinking for AI seats, 1..16 (default 2)"},
    {"--max-games", "N", "most games kept at once, 1..10000000 (default 10000)"},
    {"--max-think", "SECONDS", "longest an AI seat thinks on one move (any budget), 1..3600"},
    {"--sync", "full|normal", "how hard each move is committed to disk (default normal)"},
    {"--rules-dir", "DIR", "offer the Lua rule scripts and games of DIR in the lobby "
                           "(docs/lua.md)"},
    {"--max-hints", "N", "perfect-play hints solved at once, 1..16; past it 503 (default 1)"},
    {"--max-uploads", "N", "record uploads replayed at once, 1..16; past it 503 (default 2)"},
    {"--max-listings", "N", "agent listings built at once, 1..16; past it 503 (default 2)"},
    {"--per-client", "N",
     "heavy requests (hints, uploads, listings) in flight per client address; past it 429 "
     "(default 2)"},
    {"--per-ip-connections", "N",
     "open connections per client address, 0..4000; more are refused (default 0: no limit, "
     "as clients behind one proxy share an address)"},
    END_OPTS};

static const cli_opt_doc list_opts[] = {
    {"--json", NULL, "print every game's option schema as one JSON document"},
    END_OPTS};

static const cli_opt_doc state_opts[] = {
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--state", "TEXT", "the position, in the game's state text (default: the start)"},
    {"--json", NULL, "print the position as one JSON object instead of a drawing"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc skill_opts[] = {
    {"--agent", "KIND", "mcts, alphabeta or expectimax, optionally with other parameters"},
    {"--budgets", "B1,B2,...", "increasing budgets: mcts iters, alphabeta/expectimax depth"},
    {"--games", "N", "games per step (default 100)"},
    {"--seed", "S", "seed of the whole run (default 1)"},
    {"--threads", "T", "worker threads, 1..64 (default 1)"},
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--out", "DIR", "write report.json, skill.csv and skill.svg into DIR"},
    {"--resume", "DIR", "finish a run stopped with Ctrl-C that wrote DIR (same command)"},
    {"--progress", "auto|bar|lines|off",
     "progress with the time left on stderr: a bar when it is a terminal (auto, the default), "
     "always the bar, a line at each tenth of the run and at least once a minute, or none"},
    {"--exact-seconds", "S",
     "solver time for the start, for the perfect-play check (default 10, 0 = off)"},
    {"--exact-mb", "M", "memory for that solve, in MiB (default 256)"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc ladder_opts[] = {
    {"--agents", "A,B,...", "the agents to rate (two or more specs)"},
    {"--games", "N",
     "games per table of agents (default 100), rounded up to whole seatings: 102 at 3 seats"},
    {"--seed", "S", "seed of the whole run (default 1)"},
    {"--threads", "T", "worker threads, 1..64 (default 1)"},
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--prior", "G", "virtual drawn games added to every pair (default 1)"},
    {"--out", "DIR", "write ratings.txt, ratings.csv, pairs.csv and ratings.svg into DIR"},
    {"--resume", "DIR", "finish a run stopped with Ctrl-C that wrote DIR (same command)"},
    {"--progress", "auto|bar|lines|off",
     "progress with the time left on stderr: a bar when it is a terminal (auto, the default), "
     "always the bar, a line at each tenth of the run and at least once a minute, or none"},
    PIPS_LUA_OPTS
    END_OPTS};

static const cli_opt_doc moves_opts[] = {
    {"--opt", "KEY=VALUE", "a game option (repeatable)"},
    {"--state", "TEXT", "the position, in the game's state text (default: the start)"},
    {"--filter", "TEXT", "only the moves whose text holds TEXT (letters in either case)"},
    {"--flat", NULL, "one move a line, no grouping and no heading (for scripts)"},
    END_OPTS};

static const cli_opt_doc agents_opts[] = {
    {"--opt", "KEY=VALUE", "with GAME: a game option (repeatable)"},
    END_OPTS};

static const cli_opt_doc engine_opts[] = {
    {"--seed", "N", "seed of the engine's dice and agents (default 1)"},
    END_OPTS};

static const cli_cmd_doc docs[] = {
    {"list", "games with their options and defaults", "[--json] [FILE.lua]...",
     "Lists every game (or the Lua games named, docs/lua.md) with its options:\n"
     "default, accepted values and what each\n"
     "does. --json prints the option schema of every game as one JSON document:\n"
     "{\"games\": [{\"name\", \"title\", \"options\": [{\"key\", \"type\"\n"
     "(int|bool|choice|text), \"default\", \"description\", \"min\"/\"max\" (and\n"
     "\"words\"), \"choices\" or \"pattern\"}]}]}.",
     list_opts, NULL},
    {"rules", "the rules of a game as implemented, with ruling ids", "GAME",
     "Prints the rules of GAME as this program implements them, with the ids of\n"
     "the project's rulings (such as NIM-R4), the move notation, the pieces' sizes\n"
     "in mm and the options, wrapped to the terminal's width (80 columns when\n"
     "stdout is not a terminal). The last line names the page that explains every\n"
     "ruling: PREFIX/share/doc/pips/games/GAME.md for an installed pips, else\n"
     "docs/games/GAME.md in the sources it was built from.",
     no_opts, "game"},
    {"play", "play in the terminal against people or AI",
     "GAME [--opt KEY=VALUE]... [--seat human|AGENT]... [--seed N]\n[--record FILE [--force]]\n"
     "--resume FILE [--seat human|AGENT]... [--record FILE [--force]]",
     "Plays GAME in the terminal. One --seat per player in seat order: 'human' or an\n"
     "agent spec such as 'random' (default: seat 1 human, the others random). With no\n"
     "human seat the game plays itself to the end without reading input. The board uses\n"
     "Unicode and colour when stdout is a terminal (no colour when NO_COLOR is set).\n"
     "--record FILE is checked before the game starts (a FILE that exists is refused\n"
     "unless --force) and written when it starts and after every move, each time\n"
     "whole to a temporary file renamed over FILE, so a game that is interrupted\n"
     "(Ctrl-C), ends its input or is killed keeps every move played. The same game,\n"
     "seats and seed give the same moves as 'pips playtest' (its first game) and\n"
     "'pips serve'.\n\n"
     "--resume FILE continues the unfinished game of a record with its game, options\n"
     "and seed (so the dice roll on as they would have), and keeps writing FILE (or\n"
     "the --record given). The seats are the record's unless --seat is given; agents\n"
     "start afresh from the position, so their later moves can differ from a game\n"
     "played without a break. A finished game is refused with status 2.\n\n"
     "Moves are numbered as in records: the 1-based ply and the seat, '7. seat 1\n"
     "(hard (mcts:iters=10000)): M@3,0', and a roll of the dice '8. roll: 4'.\n\n"
     "At the prompt type a move, or: help, moves [TEXT] (the legal moves grouped as\n"
     "'pips moves' groups them, only those holding TEXT when given; for Noname,\n"
     "'suggest' lists candidate placements), undo (takes back the last move of a\n"
     "person and the replies after it), hint (the hard level's best moves, each with\n"
     "its expected return for the seat to move), state, quit.\n\n"
     "Agent specs: random, greedy, alphabeta:depth=6, expectimax:depth=2,\n"
     "mcts:iters=10000, mcts:time=1,threads=2, oracle:time=2, or a level easy,\n"
     "medium, hard, max; 'pips agents' lists every kind and parameter.",
     play_opts, "game"},
    {"replay", "validate a game record and show its positions", "FILE|-",
     "Validates a game record (FILE, or standard input for '-'), replaying every\n"
     "move: the game and options must exist, the seats must be 'human' or valid\n"
     "agent specs, unknown top-level keys are refused and the stored result must\n"
     "match the moves. Prints the final position and result, or names the first\n"
     "problem and exits 1. On a terminal (and not from '-'), steps through the\n"
     "game: Enter/n next, p previous, a number jumps to the position after that\n"
     "move, q quits; any other key is refused with a message. Each position names\n"
     "the last move as records number moves: '7. seat 1 (human): M@3,0'.",
     no_opts, "file"},
    {"perft", "count move sequences of a given depth",
     "GAME DEPTH [--opt KEY=VALUE]... [--divide]",
     "Counts the move sequences of exactly DEPTH moves (0..64) from the start\n"
     "(chance outcomes count as moves). The last line is the bare count.",
     perft_opts, "game"},
    {"solve", "solve a small game exactly: win, loss or draw",
     "GAME [--opt KEY=VALUE]... [--threads N] [--table-mb MB]\n"
     "[--time S] [--state TEXT | --record FILE --ply N] [--best]",
     "Solves a two-player game exactly. From the start it prints positions stored,\n"
     "nodes, memory and time, then a winning first move (or 'no winning first move'),\n"
     "and last win, loss or draw for the player to move. With --state TEXT (the\n"
     "game's state text) or --record FILE --ply N (the position after N moves of a\n"
     "record) it prints one line per legal move, 'MOVE win|loss|draw' (the mover's\n"
     "value after playing it), and the position's value last; with --best as well,\n"
     "it solves the position alone, as from the start, and prints one winning move\n"
     "(or 'no winning move'): much faster where the position is a win.\n\n"
     "Every solve is bounded. --table-mb sets the memory budget of the tables; the\n"
     "default is half the memory the system reports available, at most 11264 MB.\n"
     "--time S gives up after S seconds. A solve that runs out of its budget stops\n"
     "with exit status 3 and a message naming it; a game the solver cannot handle\n"
     "(chance, more than two players, too long) is refused at once with status 1.\n"
     "Progress goes to stderr about once a second.",
     solve_opts, "game"},
    {"bench", "fixed benchmark workload per game", "[GAME]...",
     "Runs a fixed workload per game (all games, or the GAMEs named) on one core:\n"
     "perft from the start and seeded random playouts. Prints nodes/s and\n"
     "playouts/s per game, then one total node count that changes only when\n"
     "behaviour changes (a fingerprint). Games with a light playout policy add a\n"
     "line of policy playouts/s (not in the total). An unknown game is an error.",
     no_opts, "game"},
    {"playtest", "play many games between agents and report statistics",
     "GAME --seats A[,B,...] [--games N] [--seed S] [--threads T]\n"
     "[--opt K=V]... [--vary K=V1,V2,...]... [--vs-opt K=V]...\n"
     "[--seatings rotate|all|fixed] [--drama on|off] [--drama-every K]\n"
     "[--resume DIR] [--progress M] [--out DIR [--records]] [--threshold X]\n"
     "[--exact-seconds S] [--exact-mb M]",
     "Plays N games between the agents (one spec per seat, e.g.\n"
     "mcts:iters=1000,random, or one spec for every seat) and prints a Markdown\n"
     "report: results per agent and per seat with 95% Wilson intervals,\n"
     "first-player advantage, seat balance, draw rate, cap rate (games ended by a\n"
     "turn or move cap), game length, branching factor by ply, time per move and,\n"
     "when an MCTS agent plays, decisiveness (when the winner's value first stays\n"
     "above --threshold). Seats rotate so every agent sits in every seat equally;\n"
     "--seatings all plays every distinct order of the agents equally often (from\n"
     "5 seats a balanced design: each agent in each seat and after each other\n"
     "agent equally often); --seatings fixed (or --fixed-seats) keeps them put.\n"
     "Identical specs are pooled into one agent. Game i runs with the match seed pips_table_game_seed\n"
     "(S, i); game 0 is the game 'pips play' plays with --seed S.\n\n"
     "--vary K=V1,V2,... plays the same seeds under every variant, the grid of all\n"
     "--vary values (';' separates values that hold commas), and adds a sweep table\n"
     "and each variant's differences from the first with p-values (Holm-Bonferroni\n"
     "adjusted). --vs-opt K=V is the two-variant case: the --opt values, then the\n"
     "same with these overrides. Two-player deterministic variants are solved\n"
     "exactly (in a child process, within --exact-seconds and --exact-mb) and the\n"
     "report warns when the measured rates disagree with the proven value.\n\n"
     "--out DIR writes report.md, report.json, sweep.csv, seats.svg, lengths.svg\n"
     "and with several variants sweep-METRIC.svg; with --records also\n"
     "DIR/records/A-000001.json... (B-... for the second variant), each game as a\n"
     "JSON record that 'pips replay' reads (old records there are removed first).\n"
     "The same --seed gives the same report for any --threads or MPI ranks (run\n"
     "description and timing aside).\n\n"
     "An agent's own parameters also use ',': a ',' followed by KEY=VALUE continues\n"
     "the agent, e.g. --seats mcts:time=1,threads=2,alphabeta:depth=6.",
     playtest_opts, "game"},
    {"analyze", "rank the moves of a position with an agent",
     "GAME (--state TEXT | --record FILE [--ply N]) [--opt K=V]...\n"
     "[--agent SPEC] [--seed N] [--top K]",
     "Ranks the moves of a position with an agent and prints them best first by\n"
     "value: rank, move, value for the player to move (an estimate in [0, 1], or\n"
     "win, loss or draw when the search proved it), and visits (MCTS) or searched\n"
     "nodes. The position is the state text TEXT, or the position after\n"
     "the first N moves of a game record (GAME must match the record). The last\n"
     "line is the best move alone.",
     analyze_opts, "game"},
    {"ladder", "rate agents: a round robin and Elo ratings with intervals",
     "GAME --agents A,B[,C...] [--games N] [--seed S] [--threads T]\n"
     "[--opt K=V]... [--prior G] [--out DIR] [--resume DIR]\n"
     "[--progress M]",
     "Every combination of the agents that fills the game's seats (every pair in a\n"
     "two-player game) plays N games with seats rotated (at 3+ seats over every\n"
     "seating, as 'pips playtest --seatings all'), and every game gives each\n"
     "pair of agents at the table a point for the higher return (half each when\n"
     "equal). Prints Elo ratings (mean 0) from a Bradley-Terry fit with 95% intervals\n"
     "from the Fisher information, one line per agent, best first: rank, Elo,\n"
     "interval, score, pairwise games, agent. --prior G adds G virtual drawn games\n"
     "to every pair so a perfect score keeps a finite rating. The same --seed gives\n"
     "the same ratings for any --threads. Agent parameters use ',' as in\n"
     "'pips playtest --seats'. Ctrl-C (or SIGTERM) stops at the next game, rates\n"
     "the games finished (exit status 130) and with --out DIR saves DIR/state.json:\n"
     "the same command with --resume DIR finishes the run with exactly the\n"
     "ratings of an uninterrupted one.",
     ladder_opts, "game"},
    {"skill", "skill depth: each budget against the one before it",
     "GAME --agent KIND --budgets B1,B2,... [--games N] [--seed S]\n"
     "[--threads T] [--opt K=V]... [--out DIR] [--resume DIR] [--progress M]\n"
     "[--exact-seconds S] [--exact-mb M]",
     "Plays each budget of one agent kind (mcts iters, alphabeta or expectimax\n"
     "depth) against the budget before it, N games a step: at two seats each side\n"
     "in each seat equally often, at three or more the lone stronger agent against\n"
     "a field of the weaker over every seating. Prints, per step, the stronger\n"
     "side's win rate and score with 95% Wilson intervals and whether it scores\n"
     "significantly more than its fair share 1/n, then the skill chain length: the\n"
     "consecutive steps from the first where it does (after Lantz et al., 'Depth\n"
     "in Strategic Games', 2017). Budgets must increase. Ctrl-C stops at the next\n"
     "game and reports the steps finished (exit status 130); with --out DIR it\n"
     "saves DIR/state.json, and the same command with --resume DIR finishes the\n"
     "run with exactly the table of an uninterrupted one.\n\n"
     "Where the exact solver settles the start (two seats, no chance; within\n"
     "--exact-seconds), every move of every budget along the run's games is checked\n"
     "against the solved value of its position, and the last line names the smallest\n"
     "budget that plays perfectly from the start: every move it made kept the\n"
     "solved value (a win stays a win, a draw a draw).",
     skill_opts, "game"},
    {"moves", "the legal moves of a position, filtered and grouped",
     "GAME [--opt KEY=VALUE]... [--state TEXT] [--filter TEXT] [--flat]",
     "Lists the legal moves of the start or of the position TEXT (the game's state\n"
     "text), after a heading line with the seat to move and the count. A move\n"
     "written PIECE@PLACE[:POSE] is grouped by piece, one line each, with its places\n"
     "and each place's poses: Nimitz's 'rL (45): a1:U,N,E,S,W b1:U,N,E,S,W ...'.\n"
     "--filter TEXT keeps the moves whose text holds TEXT ('rL@', '@b2', ':N').\n"
     "Noname's moves are continuous: its list is the engine's suggested\n"
     "placements. At a chance event the list is its outcomes.",
     moves_opts, "game"},
    {"agents", "every agent kind with its parameters, and the levels",
     "[GAME [--opt KEY=VALUE]...]",
     "Lists every agent kind a seat or --agent takes (random, greedy, alphabeta,\n"
     "expectimax, mcts, oracle) with what it does and its parameters and\n"
     "defaults, then the levels easy, medium, hard and max with the spec each\n"
     "stands for in every game, or in GAME with its options: 'hard\n"
     "(mcts:iters=10000)'. Commands print a level this way wherever they name an\n"
     "agent.",
     agents_opts, "game"},
    {"state", "a position as a drawing, or as JSON for programs",
     "GAME [--opt KEY=VALUE]... [--state TEXT] [--json]",
     "Shows the start position of GAME, or the position TEXT (the game's state\n"
     "text, see 'pips rules GAME'): the board drawing, then the state text.\n"
     "--json prints instead one JSON object: game, options, to_move (0-based\n"
     "seat, null at a chance event or the end), over, view (everything a board\n"
     "drawing needs; docs/architecture.md, 'State views') and state.",
     state_opts, "game"},
    {"serve", "run the game server: web UI and JSON API",
     "[--port 8080] [--bind 127.0.0.1] [--db PATH] [--web DIR]\n"
     "[--ai-threads 2] [--max-games 10000] [--max-think SECONDS]\n"
     "[--sync full|normal] [--max-hints 1] [--max-uploads 2] [--max-listings 2]\n"
     "[--per-client 2] [--per-ip-connections 0]",
     "Serves the web UI and the JSON API under /api/. Every game is kept in an\n"
     "SQLite database (default $XDG_DATA_HOME/pips/pips.db, else\n"
     "~/.local/share/pips/pips.db); a restarted server resumes every game.\n"
     "The line 'listening on http://ADDR:PORT/' says where it listens.\n\n"
     "--sync normal (default): every acknowledged move is committed (WAL) and\n"
     "survives a killed server; full also fsyncs each commit, surviving a power cut,\n"
     "at the cost of one disk sync per group of concurrent commits. Stops on SIGINT\n"
     "or SIGTERM.",
     serve_opts, NULL},
    {"engine", "a line protocol on stdin/stdout for programs (like GTP)", "[--seed N]",
     "Reads one command a line on stdin and answers on stdout, for GUIs, bots and\n"
     "scripts. Every answer starts with '= ' (success) or '? ' (error, with the\n"
     "message) and ends with an empty line. Commands: list_commands, name, version,\n"
     "game NAME [KEY=VALUE]..., seed N, state [TEXT], turn, legal, play MOVE, roll,\n"
     "undo, genmove [AGENT], analyze [AGENT], result, showboard, quit. Chance events\n"
     "are rolled by the engine from its seed (roll, or genmove at a chance node),\n"
     "unless 'play' names the outcome. The protocol is described in\n"
     "docs/engine-protocol.md.",
     engine_opts, NULL},
    {"version", "the version of pips", "",
     "Prints the version of pips, with the git description of the source when it\n"
     "was built from a checkout. Same as 'pips --version'.",
     no_opts, NULL},
    {"help", "help on a command", "[COMMAND]",
     "Prints the help of COMMAND (the same as 'pips COMMAND --help'), or the list\n"
     "of commands.",
     no_opts, "command"},
};

const char cli_doc_environment[] =
    "NO_COLOR: when set (to anything), boards are drawn without ANSI colours.\n\n"
    "XDG_DATA_HOME, HOME: where 'pips serve' keeps its database by default.";

const char cli_doc_exit_status[] =
    "0: done.\n"
    "1: the work failed: a file that cannot be read, or written once the work is\n"
    "under way, a record that is not valid, out of memory, a rule script's error.\n"
    "2: usage or bad input: an unknown command, flag, game, option or agent, a value\n"
    "out of its range (the message gives the range), an illegal state or move, an\n"
    "output (--record, --out) that cannot be written, checked before the work starts.\n"
    "3: a budget ran out before the answer: 'pips solve' past --time or\n"
    "--table-mb.\n"
    "130: interrupted (Ctrl-C); 'pips play' still writes its --record.";

size_t cli_doc_count(void) { return sizeof docs / sizeof docs[0]; }

const cli_cmd_doc *cli_doc_at(size_t i) { return i < cli_doc_count() ? &docs[i] : NULL; }

const cli_cmd_doc *cli_doc_find(const char *name)
{
    for (size_t i = 0; i < cli_doc_count(); i++)
        if (!strcmp(docs[i].name, name))
            return &docs[i];
    return NULL;
}

const cli_opt_doc *cli_doc_option(const cli_cmd_doc *d, const char *flag)
{
    for (const cli_opt_doc *o = d->opts; o->flag; o++)
        if (!strcmp(o->flag, flag))
            return o;
    return NULL;
}

void cli_print_overview(FILE *f)
{
    fprintf(f, "usage: pips COMMAND [ARGS]...\n"
               "       pips --version\n\n"
               "pips plays, analyses and serves five Looney Pyramid games.\n\ncommands:\n");
    for (size_t i = 0; i < cli_doc_count(); i++)
        fprintf(f, "  %-9s %s\n", docs[i].name, docs[i].summary);
    fprintf(f, "\n'pips COMMAND --help' or 'pips help COMMAND' describes each command.\n"
               "Long options also take the form --key=value. Game names are\n"
               "case-insensitive.\n\nenvironment:\n%s\n\nexit status:\n%s\n",
            cli_doc_environment, cli_doc_exit_status);
}

static void print_synopsis(FILE *f, const cli_cmd_doc *d)
{
    const char *lead = "usage: pips ";
    int indent = (int)strlen(lead) + (int)strlen(d->name) + 1;
    fprintf(f, "%s%s", lead, d->name);
    const char *s = d->synopsis;
    bool first = true;
    while (*s) {
        size_t len = strcspn(s, "\n");
        if (first)
            fprintf(f, " %.*s", (int)len, s);
        else
            fprintf(f, "\n%*s%.*s", indent, "", (int)len, s);
        first = false;
        s += len + (s[len] == '\n');
    }
    fputc('\n', f);
}

void cli_print_wrapped(FILE *f, const char *text, int indent, int col, int width)
{
    bool line_start = true;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (!line_start && col + 1 + (int)word > width - 1) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (!line_start) {
            fputc(' ', f);
            col++;
        }
        line_start = false;
        fprintf(f, "%.*s", (int)word, text);
        col += (int)word;
        text += word;
        while (*text == ' ')
            text++;
    }
    fputc('\n', f);
}

void cli_print_help(FILE *f, const cli_cmd_doc *d)
{
    print_synopsis(f, d);
    fprintf(f, "\n%s\n\noptions:\n", d->description);
    for (const cli_opt_doc *o = d->opts; o->flag; o++) {
        int col = fprintf(f, "  %s%s%s", o->flag, o->arg ? " " : "", o->arg ? o->arg : "");
        if (col < 24) {
            fprintf(f, "%*s", 24 - col, "");
            col = 24;
        } else {
            fprintf(f, "\n%24s", "");
            col = 24;
        }
        cli_print_wrapped(f, o->help, 24, col, 80);
    }
    fprintf(f, "  -h, --help            this help\n");
}

void cli_print_usage(FILE *f, const cli_cmd_doc *d)
{
    print_synopsis(f, d);
    fprintf(f, "'pips %s --help' says more.\n", d->name);
}

int cli_split_long_opts(const cli_cmd_doc *d, int argc, char **argv, char **out)
{
    int n = 0;
    out[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!strcmp(a, "--")) { /* everything after is an operand */
            while (i < argc)
                out[n++] = argv[i++];
            break;
        }
        char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
        if (eq)
            *eq = '\0';
        if (d && a[0] == '-' && a[1] == '-' && strcmp(a, "--help") != 0 &&
            !cli_doc_option(d, a)) { /* every command refuses an unknown flag alike */
            fprintf(stderr, "pips %s: unknown flag '%s' ('pips %s --help' lists them)\n",
                    d->name, a, d->name);
            if (eq)
                *eq = '=';
            return -1;
        }
        if (eq)
            *eq = '=';
        if (!eq) {
            out[n++] = a;
            const cli_opt_doc *o = d ? cli_doc_option(d, a) : NULL;
            if (o && o->arg && i + 1 < argc) /* its value stays whole */
                out[n++] = argv[++i];
            continue;
        }
        *eq = '\0';
        const cli_opt_doc *o = d ? cli_doc_option(d, a) : NULL;
        if (o && !o->arg) {
            fprintf(stderr, "pips %s: %s takes no value (got '%s')\n", d->name, a, eq + 1);
            *eq = '=';
            return -1;
        }
        out[n++] = a;
        out[n++] = eq + 1;
    }
    out[n] = NULL;
    return n;
}
