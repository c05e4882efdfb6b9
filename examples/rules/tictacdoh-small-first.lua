-- tictacdoh-small-first.lua: Tic Tac Doh! where the first piece must be a
-- small one. The findings page on players and stashes
-- (docs/findings/tictacdoh-players-stashes.md) shows the 2-player game is a
-- draw with one stash but a first-player loss with two or three, and that
-- with 3 players seat 1 almost never wins. The first placement is the only
-- one that fixes the whole 3x3 window (TTD-R1), so restricting it is the
-- cheapest lever on the seats' balance: this script allows only "S@0,0" as
-- the first move, leaving every later placement as the rules say. Sweep it
-- against the plain game with `pips playtest tictacdoh --vary
-- rules=none,examples/rules/tictacdoh-small-first.lua`, or solve it.
description = "Tic Tac Doh!: the first piece placed must be small"

function legal(state, move)
  if state.view.placed > 0 then
    return true
  end
  return move == "S@0,0"
end
