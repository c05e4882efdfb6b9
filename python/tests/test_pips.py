"""Tests of `import pips` (python/pips) against the libpips it loads.

Run by CTest (`python_tests`, from the build tree; the install test runs
them again from an installed prefix) with Debian's /usr/bin/python3:

    PYTHONPATH=build/python PIPS_COMMAND=build/pips /usr/bin/python3 -m unittest discover -s python/tests

PIPS_COMMAND, when set, is the `pips` command whose perft and state JSON
the package must equal.
"""
import json
import os
import random
import subprocess
import tempfile
import threading
import unittest

import pips

COMMAND = os.environ.get("PIPS_COMMAND")


class GamesAndStates(unittest.TestCase):
    def test_games(self):
        self.assertEqual(sorted(pips.games()),
                         ["icefrogs", "nimitz", "noname", "tictacdoh", "ziggurat"])

    def test_game_options_schema_and_values(self):
        game = pips.Game("nimitz", board="3x3", colors=3, misere=True)
        keys = [o["key"] for o in game.options]
        self.assertIn("board", keys)
        board = next(o for o in game.options if o["key"] == "board")
        self.assertEqual(board["type"], "text")
        self.assertEqual(game.values["board"], "3x3")
        self.assertEqual(game.values["misere"], "true")
        self.assertEqual(game.players, 2)
        self.assertEqual(game.title, "Nimitz")

    def test_start_is_the_start_position(self):
        state = pips.Game("tictacdoh").start()
        self.assertEqual(state.to_move, 0)
        self.assertFalse(state.over)
        self.assertIsNone(state.returns)
        self.assertEqual(len(state.moves()), 3)  # S, M or L in the centre
        self.assertEqual(state.view()["view"]["stash"], {"S": 5, "M": 5, "L": 5})

    def test_play_child_undo(self):
        state = pips.Game("tictacdoh").start()
        start_text = state.text()
        child = state.child("L@0,0")
        self.assertEqual(state.text(), start_text)  # child leaves its parent alone
        self.assertEqual(child.to_move, 1)
        state.play(state.parse("L@0,0"))
        self.assertEqual(state, child)
        state.undo()
        self.assertEqual(state.text(), start_text)
        with self.assertRaisesRegex(pips.Error, "no move to take back"):
            state.undo()

    def test_undo_to_the_start(self):
        # Noname's 40 KB state is copied every few plies only: undo replays
        # the moves since the copy; every position on the way back must be
        # the one played through, in a copy too.
        rng = random.Random(11)
        for name in pips.games():
            state = pips.Game(name).start()
            texts = []
            while not state.over and len(texts) < 40:
                texts.append(state.text())
                state.play(rng.choice(state.moves()))
            copy = state.copy()
            for want in reversed(texts):
                state.undo()
                self.assertEqual(state.text(), want, name)
                state.play(rng.choice(state.moves()))  # a detour, then back
                state.undo()
                self.assertEqual(state.text(), want, name)
            for want in reversed(texts):
                copy.undo()
                self.assertEqual(copy.text(), want, name)
            with self.assertRaisesRegex(pips.Error, "no move to take back"):
                copy.undo()

    def test_move_text_round_trip(self):
        state = pips.Game("ziggurat").start()
        rng = random.Random(3)
        for _ in range(60):
            for m in state.moves():
                self.assertEqual(state.parse(state.move_text(m)), m)
            state.play(rng.choice(state.moves()))

    def test_random_games_to_the_end(self):
        rng = random.Random(7)
        for name in pips.games():
            game = pips.Game(name)
            state = game.start()
            plies = 0
            while not state.over:
                moves = state.moves()
                self.assertTrue(moves, f"{name}: no moves at ply {plies}")
                state.play(rng.choice(moves))
                plies += 1
            returns = state.returns
            self.assertEqual(len(returns), game.players)
            self.assertTrue(all(0 <= r <= 1 for r in returns), returns)
            self.assertEqual(state.to_move, pips.OVER)
            self.assertEqual(state.moves(), [])
            # the end position reads back from its text
            again = pips.State.from_text(game, state.text())
            self.assertEqual(again, state)
            self.assertIn("result", state.view()["view"])

    def test_chance_outcomes(self):
        state = pips.Game("ziggurat").start()
        while state.to_move != pips.CHANCE:
            state.play(state.moves()[0])
        outcomes = state.chance_outcomes()
        self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0)
        self.assertEqual([m for m, _ in outcomes], state.moves())

    def test_str_draws_the_board(self):
        state = pips.Game("tictacdoh").start().child("L@0,0")
        self.assertIn("L", str(state))
        self.assertIn("O to move", str(state))
        self.assertTrue(repr(state).startswith("pips.State.from_text("))

    def test_from_text_with_options(self):
        state = pips.State.from_text("nimitz", "b2:U:rL", board="3x3", colors=3)
        self.assertEqual(state.text(), "b2:U:rL")
        self.assertEqual(state.game.values["board"], "3x3")

    def test_canonical_compares_up_to_symmetry(self):
        # rules/nimitz.md "Symmetries": a corner turned to another corner,
        # with colours and orientations renamed, is the same position
        a = pips.State.from_text("nimitz", "a1:N:rL c1:E:oM")
        b = pips.State.from_text("nimitz", "c3:W:yL a3:U:gM")
        centre = pips.State.from_text("nimitz", "b2:N:rL c1:E:oM")
        self.assertNotEqual(a.text(), b.text())
        self.assertEqual(a.canonical().text(), b.canonical().text())
        self.assertNotEqual(a.canonical().text(), centre.canonical().text())
        self.assertEqual(a.text(), "a1:N:rL c1:E:oM")  # the state itself is unchanged
        self.assertEqual(a.canonical().canonical().text(), a.canonical().text())
        with self.assertRaisesRegex(pips.Error, "ziggurat has no canonical form"):
            pips.Game("ziggurat").start().canonical()


class Errors(unittest.TestCase):
    def test_error_is_value_error_with_message(self):
        self.assertTrue(issubclass(pips.Error, ValueError))
        with self.assertRaises(pips.Error) as caught:
            pips.Game("nimitz", board="9x99")
        self.assertIn("option 'board'", str(caught.exception))
        self.assertEqual(caught.exception.code, 1)

    def test_bad_options(self):
        with self.assertRaisesRegex(pips.Error, "unknown game 'chess'"):
            pips.Game("chess")
        with self.assertRaisesRegex(pips.Error, "players"):
            pips.Game("tictacdoh", players=9)
        with self.assertRaisesRegex(pips.Error, "no_such_option"):
            pips.Game("tictacdoh", no_such_option=1)
        with self.assertRaisesRegex(pips.Error, "expected a string, number or boolean"):
            pips.Game("tictacdoh", players=[2])

    def test_illegal_move_leaves_the_state(self):
        state = pips.Game("tictacdoh").start().child("L@0,0")
        before = state.text()
        with self.assertRaisesRegex(pips.Error, "expected a size"):
            state.play("zz")
        with self.assertRaisesRegex(pips.Error, "not a Tic Tac Doh! move|not legal here"):
            state.play(123456789)
        self.assertEqual(state.text(), before)
        with self.assertRaises(pips.Error):
            state.move_text(123456789)

    def test_bad_state_text(self):
        with self.assertRaisesRegex(pips.Error, "not a cell"):
            pips.State.from_text("nimitz", "z1:U:rL", board="3x3")

    def test_state_of_another_game(self):
        agent = pips.Agent("random", "tictacdoh")
        nimitz = pips.Game("nimitz").start()
        with self.assertRaisesRegex(pips.Error, "a state of nimitz given to tictacdoh"):
            agent.choose(nimitz)
        other_options = pips.Game("tictacdoh", players=3).start()
        with self.assertRaisesRegex(pips.Error, "other options"):
            agent.choose(other_options)
        with self.assertRaisesRegex(pips.Error, "a state of nimitz"):
            pips.perft("tictacdoh", 2, state=nimitz)

    def test_agent_at_the_end(self):
        state = pips.Game("tictacdoh").start()
        rng = random.Random(1)
        while not state.over:
            state.play(rng.choice(state.moves()))
        with self.assertRaisesRegex(pips.Error, "the game is over"):
            pips.Agent("random", state.game).choose(state)

    def test_bad_agent_spec(self):
        with self.assertRaisesRegex(pips.Error, "unknown agent 'bogus'"):
            pips.Agent("bogus", "tictacdoh")

    def test_bad_requests(self):
        with self.assertRaisesRegex(pips.Error, "seating 'sideways'"):
            pips.playtest("tictacdoh", ["random"], games=2, seating="sideways")
        with self.assertRaisesRegex(pips.Error, "option 'players'"):
            pips.playtest("tictacdoh", ["random"], games=2, players=99)
        with self.assertRaisesRegex(pips.Error, "games"):
            pips.playtest("tictacdoh", ["random"], games=0)


class Lua(unittest.TestCase):
    """Rule scripts and whole games in Lua (docs/lua.md) from Python."""
    EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")

    def test_lua_game(self):
        game = pips.Game(os.path.join(self.EXAMPLES, "games", "overtop.lua"))
        self.assertTrue(game.scripted)
        self.assertEqual(game.title, "Overtop")
        self.assertIn("cells", [o["key"] for o in game.options])
        state = game.start()
        rng = random.Random(2)
        while not state.over:
            state.play(rng.choice(state.moves()))
        self.assertEqual(sorted(state.returns), [0.0, 1.0])
        self.assertGreater(pips.perft(game, 2), 0)

    def test_rule_script_and_its_failure(self):
        script = os.path.join(self.EXAMPLES, "rules", "tictacdoh-small-first.lua")
        plain, ruled = pips.Game("tictacdoh"), pips.Game("tictacdoh", rules=script)
        self.assertFalse(plain.scripted)
        self.assertLess(len(ruled.start().moves()), len(plain.start().moves()))
        with tempfile.NamedTemporaryFile("w", suffix=".lua") as broken:
            broken.write('function legal(state, move)\n'
                         '  if state.view.placed >= 1 then error("boom") end\n'
                         '  return true\nend\n')
            broken.flush()
            state = pips.Game("tictacdoh", rules=broken.name).start()
            # the hook fails from the second placement on: play, or the
            # next look at the position's moves, raises (never a silent "over")
            with self.assertRaisesRegex(pips.Error, "in function 'legal': boom"):
                state.play(state.moves()[0])
                state.moves()


class Search(unittest.TestCase):
    def test_perft(self):
        self.assertEqual(pips.perft("tictacdoh", 3), 2666)
        self.assertEqual(pips.perft("nimitz", 2, board="3x3", colors=3),
                         pips.perft(pips.Game("nimitz", board="3x3", colors=3), 2))
        state = pips.Game("tictacdoh").start().child("L@0,0")
        self.assertEqual(pips.perft(state.game, 1, state=state), len(state.moves()))

    @unittest.skipUnless(COMMAND, "PIPS_COMMAND names the pips command")
    def test_perft_equals_the_command(self):
        for name, depth, opts in [("tictacdoh", 4, {}), ("ziggurat", 3, {}),
                                  ("icefrogs", 3, {"players": 3}),
                                  ("nimitz", 2, {"board": "3x3"})]:
            args = [COMMAND, "perft", name, str(depth)]
            for k, v in opts.items():
                args += ["--opt", f"{k}={v}"]
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
            self.assertIn(str(pips.perft(name, depth, **opts)), out.split(), (name, out))

    @unittest.skipUnless(COMMAND, "PIPS_COMMAND names the pips command")
    def test_view_equals_the_command(self):
        state = pips.Game("tictacdoh").start().child("L@0,0").child("S@1,0")
        out = subprocess.run([COMMAND, "state", "tictacdoh", "--json", "--state", state.text()],
                             capture_output=True, text=True)
        if out.returncode != 0:
            self.skipTest(f"pips state --state: {out.stderr.strip()}")
        self.assertEqual(json.loads(out.stdout), state.view())

    def test_solve(self):
        self.assertEqual(pips.solve("nimitz", board="3x3", colors=3), "win")
        state = pips.State.from_text("nimitz", "b2:U:rL", board="3x3", colors=3)
        values = pips.solve_moves(state.game, state)
        self.assertEqual(len(values), len(state.moves()))
        self.assertTrue(set(values.values()) <= {"win", "loss", "draw"})
        # a move is a win for the mover exactly when the child is a loss for its mover
        move, value = next(iter(values.items()))
        self.assertEqual(pips.solve(state.game, state.child(move)),
                         {"win": "loss", "loss": "win", "draw": "draw"}[value])
        self.assertEqual(pips.solve(state.game, state),
                         "win" if "win" in values.values() else
                         "draw" if "draw" in values.values() else "loss")

    def test_solve_refuses_chance(self):
        with self.assertRaises(pips.Error):
            pips.solve("ziggurat", max_seconds=1)

    def test_agent_choose(self):
        game = pips.Game("tictacdoh")
        state = game.start()
        agent = pips.Agent("mcts:iters=300", game, seed=5)
        move = agent.choose(state)
        self.assertIn(move, state.moves())
        self.assertEqual(pips.Agent("mcts:iters=300", game, seed=5).choose(state), move)
        self.assertIsNotNone(agent.last_value)
        self.assertEqual(agent.spec, "mcts:iters=300")
        # a level name is a spec too
        hard = pips.Agent("hard", "nimitz", board="3x3", colors=3)
        self.assertIn(hard.choose(hard.game.start()), hard.game.start().moves())

    def test_agent_observe(self):
        # MCTS told of the moves played keeps the subtree under them, so its
        # next search builds on the last one and its estimate differs from a
        # fresh search with the same seed; with reuse=0 it is the fresh one
        game = pips.Game("tictacdoh")

        def second_search(spec, tell):
            agent = pips.Agent(spec, game, seed=3)
            state = game.start()
            for _ in range(2):  # the agent's move, then the other seat's (as text)
                move = agent.choose(state) if state.to_move == 0 else state.moves()[0]
                if tell:
                    agent.observe(state, move if state.to_move == 0 else state.move_text(move))
                state.play(move)
            return agent.choose(state), agent.last_value
        fresh = second_search("mcts:iters=2000", False)
        self.assertNotEqual(second_search("mcts:iters=2000", True)[1], fresh[1])
        self.assertEqual(second_search("mcts:iters=2000,reuse=0", True), fresh)
        # bad input raises and the agent plays on
        agent = pips.Agent("mcts:iters=100", game, seed=1)
        state = game.start()
        with self.assertRaisesRegex(pips.Error, "not a Tic Tac Doh! move"):
            agent.observe(state, max(state.moves()) + 99991)
        with self.assertRaisesRegex(pips.Error, "a state of nimitz given to tictacdoh"):
            agent.observe(pips.Game("nimitz").start(), 0)
        with self.assertRaisesRegex(pips.Error, "observe: state must be a pips.State"):
            agent.observe("-", 0)
        self.assertIn(agent.choose(state), state.moves())

    def test_threads_run_together(self):
        # every C call releases the GIL, so two threads each run their own solve
        results = []

        def work():
            results.append(pips.solve("nimitz", board="3x3", colors=3))
        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, ["win", "win"])


class Lab(unittest.TestCase):
    def test_playtest_report(self):
        report = pips.playtest("tictacdoh", ["greedy", "random"], games=20, seed=3)
        self.assertEqual(report["game"], "tictacdoh")
        self.assertEqual(report["games"], 20)
        variant = report["variants"][0]
        agents = {a["spec"]: a for a in variant["agents"]}
        self.assertEqual(agents["greedy"]["games"], 20)
        self.assertGreater(agents["greedy"]["score"]["value"], agents["random"]["score"]["value"])
        self.assertIn("run", report)  # the whole report.json, run description included
        again = pips.playtest("tictacdoh", ["greedy", "random"], games=20, seed=3)
        self.assertEqual(again["variants"], report["variants"])

    def test_playtest_vary_and_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = pips.playtest("nimitz", "random", games=4, vary={"board": ["3x3", "4x4"]},
                                   out=tmp)
            self.assertEqual([v["varied"]["board"] for v in report["variants"]],
                             ["3x3", "4x4"])
            with open(os.path.join(tmp, "report.json")) as f:
                written = json.load(f)
            self.assertEqual(written["variants"], report["variants"])

    @unittest.skipUnless(COMMAND, "PIPS_COMMAND names the pips command")
    def test_playtest_equals_the_command(self):
        report = pips.playtest("tictacdoh", ["greedy", "random"], games=10, seed=9)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([COMMAND, "playtest", "tictacdoh", "--seats", "greedy,random",
                            "--games", "10", "--seed", "9", "--exact-seconds", "0", "--out", tmp],
                           capture_output=True, check=True)
            with open(os.path.join(tmp, "report.json")) as f:
                written = json.load(f)
        self.assertEqual(written["variants"], report["variants"])

    def test_ladder(self):
        ratings = pips.ladder("tictacdoh", ["random", "greedy", "mcts:iters=100"], games=6)
        self.assertEqual(len(ratings["agents"]), 3)
        self.assertEqual([a["rank"] for a in ratings["agents"]], [1, 2, 3])
        self.assertEqual(ratings["agents"][-1]["spec"], "random")
        self.assertEqual(len(ratings["pairs"]), 3)
        self.assertAlmostEqual(sum(a["elo"] for a in ratings["agents"]), 0, places=6)


if __name__ == "__main__":
    unittest.main()
