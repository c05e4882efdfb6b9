-- overtop.lua: Overtop, a small pyramid game made for the tutorial in
-- docs/lua.md ("your first game in 60 lines"). Two players each hold two
-- large, two medium and two small pyramids. On a turn you put one of yours on
-- one of five cells in a row: on an empty cell, or on top of a strictly larger
-- pyramid. A cell belongs to whoever owns its top pyramid. A player who cannot
-- place passes; when both pass in a row, the one owning more cells wins.
local SIZES = {S = 1, M = 2, L = 3}

local game = {
  name = "overtop", title = "Overtop", players = {2, 2},
  description = "Overtop: cover the other player's pyramids with smaller ones",
  options = {cells = {type = "int", min = 3, max = 7, default = 5,
                      description = "cells in the row"}},
}

function game.start(options)
  local cells = {}
  for i = 1, options.cells do cells[i] = "" end -- each cell: pieces as "1L2M"
  return {cells = cells, hand = {{S = 2, M = 2, L = 2}, {S = 2, M = 2, L = 2}},
          turn = 0, passes = 0}
end

function game.to_move(s) return s.turn end

local function top_size(cell) return SIZES[cell:sub(-1)] or 99 end

function game.moves(s)
  local out, hand = {}, s.hand[s.turn + 1]
  for z, n in pairs(hand) do
    for i, cell in ipairs(s.cells) do
      if n > 0 and SIZES[z] < top_size(cell) then out[#out + 1] = z .. "@" .. i end
    end
  end
  if #out == 0 then out[1] = "pass" end
  return out
end

function game.play(s, move)
  local t = {cells = {}, hand = {}, turn = 1 - s.turn, passes = 0}
  for i, c in ipairs(s.cells) do t.cells[i] = c end
  for p = 1, 2 do t.hand[p] = {S = s.hand[p].S, M = s.hand[p].M, L = s.hand[p].L} end
  if move == "pass" then t.passes = s.passes + 1; return t end
  local z, i = move:match("^(%a)@(%d+)$")
  i = tonumber(i)
  t.cells[i] = t.cells[i] .. (s.turn + 1) .. z
  t.hand[s.turn + 1][z] = t.hand[s.turn + 1][z] - 1
  return t
end

local function owned(s)
  local count = {0, 0}
  for _, c in ipairs(s.cells) do
    local p = tonumber(c:sub(-2, -2))
    if p then count[p] = count[p] + 1 end
  end
  return count
end

function game.result(s)
  if s.passes < 2 then return nil end
  local c = owned(s)
  if c[1] == c[2] then return {0.5, 0.5} end
  return c[1] > c[2] and {1, 0} or {0, 1}
end

function game.render(s)
  local c = owned(s)
  return table.concat(s.cells, " | ") .. "\nowned: " .. c[1] .. " to " .. c[2]
end

function game.key(s) return game.render(s) .. s.turn .. s.passes end

function game.view(s) -- for the web page: the row as a grid, each cell's owner on top
  local cells = {}
  for i, c in ipairs(s.cells) do
    local stack = {}
    for z in c:gmatch("%d(%a)") do stack[#stack + 1] = z end
    if #stack > 0 then
      cells[#cells + 1] = {x = i - 1, y = 0, stack = stack, owner = tonumber(c:sub(-2, -2)) - 1}
    end
  end
  return {kind = "grid", width = #s.cells, height = 1, cells = cells}
end

return game
