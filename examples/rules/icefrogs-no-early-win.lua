-- icefrogs-no-early-win.lua: IceFrogs where nobody may win during the first
-- two rounds. The findings page on 2 to 6 players
-- (docs/findings/icefrogs-players.md) finds that with 4, 5 and 6 players on
-- the star (ICF-R10) games are over within the first few rounds, a mean of 5
-- to 13 moves, because neighbouring tips sit close together. This script
-- forbids a move that ends on an opponent's start space (the win of ICF-R8 and
-- ICF-R11) until every player has moved twice, so the opening is a race of
-- development rather than a sprint. It reads the position's view: the ply
-- count and each cell's start seat; a move's destination is the cell named
-- after its last '-' or '+'.
description = "IceFrogs: no move may end on an opponent's start space in the first two rounds"

function legal(state, move)
  local view = state.view
  if view.ply >= 2 * view.players then
    return true
  end
  local dest = move:match("[-+](%w+)$")
  if not dest then
    return true -- a pass
  end
  for _, cell in ipairs(view.cells) do
    if cell.name == dest then
      return cell.start == nil or cell.start == state.to_move
    end
  end
  return true
end
