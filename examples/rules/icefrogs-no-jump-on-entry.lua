-- icefrogs-no-jump-on-entry.lua: IceFrogs where a frog that enters from the
-- supply may not jump on that turn. Under ICF-R3 a player may take a pyramid
-- from supply, set it on their start space and move it from there with a step
-- or a whole chain of jumps (ICF-R5). A designer asked what happens when an
-- entering frog may only step: it must end next to its start space, so new
-- frogs cannot leap straight into the middle of the board. The script reads
-- the position (state.view.cells: names, axial q and r, start spaces) to find
-- the mover's start space, and removes every entering move ("M+e3") whose
-- destination is not one of its six neighbours. Moves of frogs already on the
-- board are unchanged.
description = "IceFrogs: a frog entering from supply may only step (no jumps on entry)"

local function neighbours(a, b)
  local dq, dr = b.q - a.q, b.r - a.r
  return (dq == 0 and (dr == 1 or dr == -1)) or (dr == 0 and (dq == 1 or dq == -1))
      or (dq == 1 and dr == -1) or (dq == -1 and dr == 1)
end

function legal(state, move)
  local dest = move:match("^[SMLsml]%+(%w+)$")
  if not dest then
    return true -- a move of a frog on the board, or a pass
  end
  local start, target
  for _, cell in ipairs(state.view.cells) do
    if cell.start == state.to_move then start = cell end
    if cell.name == dest then target = cell end
  end
  return neighbours(start, target)
end
