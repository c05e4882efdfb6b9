-- tictacdoh.lua: the whole of Tic Tac Doh! (Brian Schultze, 2003) in Lua,
-- under the project's rulings TTD-R1..R10 (docs/games/tictacdoh.md), for 2 to
-- 4 players and 1 to 3 stashes. It is the C game (src/games/tictacdoh/) again,
-- written the way a designer would: tests/test_lua.c checks that its perft
-- equals the C engine's to depth 5 with 2 and 3 players. Moves use the C
-- game's notation: SIZE@X,Y ("L@0,0", "M@1,-1"), cells relative to the first
-- piece (TTD-R1), y upward.
--
-- A state is {cells = {[key] = "LM", ...}, stash = {S, M, L}, placed = n,
-- status = "on" | "won" | "draw", players = n}: each stack bottom first.

local SIZES = {"S", "M", "L"}
local RANK = {S = 1, M = 2, L = 3}

-- A cell's key: a number, (x + 8) * 16 + y + 8 (cheaper than text keys).
local function key_of(x, y) return (x + 8) * 16 + y + 8 end

local function coords(key) return key // 16 - 8, key % 16 - 8 end

-- TTD-R4: a single piece counts as its size, a tree as every size in it,
-- a nest only as its top piece. As a bit set (S 1, M 2, L 4), memoised.
local BIT = {S = 1, M = 2, L = 4}
local COUNTS = {}
local function counts_as(stack)
  local set = COUNTS[stack]
  if set then return set end
  local n = #stack
  if n == 1 then
    set = BIT[stack]
  elseif RANK[stack:sub(1, 1)] > RANK[stack:sub(2, 2)] then -- a tree
    set = 0
    for i = 1, n do set = set | BIT[stack:sub(i, i)] end
  else -- a nest
    set = BIT[stack:sub(n, n)]
  end
  COUNTS[stack] = set
  return set
end

-- The bounding box of the pieces, as key parts: x + 8 and y + 8.
local function bbox(cells)
  local minx, maxx, miny, maxy = 99, -99, 99, -99
  for k in pairs(cells) do
    local x, y = k // 16, k % 16
    if x < minx then minx = x end
    if x > maxx then maxx = x end
    if y < miny then miny = y end
    if y > maxy then maxy = y end
  end
  return minx - 8, maxx - 8, miny - 8, maxy - 8
end

-- TTD-R3: a piece goes on a stack when it differs from the top by one size
-- and continues the stack's direction (tree down, nest up), at most 3 high.
local function can_stack(stack, size)
  local n = #stack
  if n >= 3 then return false end
  local top = RANK[stack:sub(n, n)]
  local step = RANK[size] - top
  if step ~= 1 and step ~= -1 then return false end
  if n == 1 then return true end
  return top - RANK[stack:sub(n - 1, n - 1)] == step
end

-- The sizes (as ranks) that may go on top of a stack (TTD-R3), memoised.
local ON_TOP = {}
local function on_top(stack)
  local list = ON_TOP[stack]
  if not list then
    list = {}
    for r, z in ipairs(SIZES) do
      if can_stack(stack, z) then list[#list + 1] = r end
    end
    ON_TOP[stack] = list
  end
  return list
end

-- Move names, made once each: NAMES[key * 4 + rank]; CODES maps a name back.
local NAMES, CODES = {}, {}
local function move_name(r, k)
  local code = k * 4 + r
  local name = NAMES[code]
  if not name then
    local x, y = coords(k)
    name = string.format("%s@%d,%d", SIZES[r], x, y)
    NAMES[code], CODES[name] = name, code
  end
  return name
end

-- Every legal placement's name, TTD-R1..R3; with first_only, only whether
-- there is one (true or nil).
local function placements(s, first_only)
  local out, n, stash = {}, 0, s.stash
  if s.placed == 0 then
    for r = 1, 3 do
      if stash[r] > 0 then n = n + 1; out[n] = move_name(r, key_of(0, 0)) end
    end
    if first_only then return n > 0 or nil end
    return out
  end
  local cells = s.cells
  local has1, has2, has3 = stash[1] > 0, stash[2] > 0, stash[3] > 0
  -- a place lies in a 3 x 3 frame with every piece (TTD-R2) and next to a
  -- piece (TTD-R1), so within one cell of the pieces' box
  local minx, maxx, miny, maxy = bbox(cells)
  local x0, x1, y0, y1 = maxx - 2, minx + 2, maxy - 2, miny + 2
  if x0 < minx - 1 then x0 = minx - 1 end
  if x1 > maxx + 1 then x1 = maxx + 1 end
  if y0 < miny - 1 then y0 = miny - 1 end
  if y1 > maxy + 1 then y1 = maxy + 1 end
  for x = x0, x1 do
    for k = key_of(x, y0), key_of(x, y1) do
      local stack = cells[k]
      if stack then
        local sizes = ON_TOP[stack] or on_top(stack)
        for i = 1, #sizes do
          local r = sizes[i]
          if stash[r] > 0 then
            if first_only then return true end
            n = n + 1; out[n] = NAMES[k * 4 + r] or move_name(r, k)
          end
        end
      elseif cells[k - 17] or cells[k - 16] or cells[k - 15] or cells[k - 1]
          or cells[k + 1] or cells[k + 15] or cells[k + 16] or cells[k + 17] then
        -- an empty cell touching a piece
        if first_only and (has1 or has2 or has3) then return true end
        if has1 then n = n + 1; out[n] = NAMES[k * 4 + 1] or move_name(1, k) end
        if has2 then n = n + 1; out[n] = NAMES[k * 4 + 2] or move_name(2, k) end
        if has3 then n = n + 1; out[n] = NAMES[k * 4 + 3] or move_name(3, k) end
      end
    end
  end
  if first_only then return nil end
  return out
end

-- TTD-R5: three cells in a row, column or diagonal that count as a common
-- size; only lines through the cell just played (key k) can be new. The
-- directions as key steps: x (16), y (1) and the two diagonals (17, 15).
local STEPS = {16, 1, 17, 15}
local function has_line(cells, k)
  for i = 1, 4 do
    local d = STEPS[i]
    for s = k - 2 * d, k, d do -- the three lines through k in this direction
      local a, b, c = cells[s], cells[s + d], cells[s + 2 * d]
      if a and b and c and (COUNTS[a] or counts_as(a)) & (COUNTS[b] or counts_as(b))
          & (COUNTS[c] or counts_as(c)) ~= 0 then
        return true
      end
    end
  end
  return false
end

local game = {
  name = "tictacdoh_lua",
  title = "Tic Tac Doh! (Lua)",
  description = "Tic Tac Doh! written in Lua: 2-4 players, 1-3 stashes (TTD-R1..R10)",
  players = {2, 4},
  max_moves = 96,
  state_bytes = 200, -- the longest state text is about 175 bytes; the solver stores states whole
  options = {
    stashes = {type = "int", min = 1, max = 3, default = 1,
               description = "stashes of 5 S, 5 M and 5 L pieces shared by all (TTD-R10)"},
  },
}

function game.start(options)
  local n = 5 * options.stashes
  return {cells = {}, stash = {n, n, n}, placed = 0, status = "on",
          players = options.players}
end

function game.to_move(s) return s.placed % s.players end

function game.moves(s) return placements(s) end

function game.play(s, move)
  local code = CODES[move]
  if not code then -- a name not generated yet: read it
    local z, x, y = move:match("^([SML])@(-?%d+),(-?%d+)$")
    code = CODES[move_name(RANK[z], key_of(tonumber(x), tonumber(y)))]
  end
  local k, r = code // 4, code % 4
  local cells = {}
  for kk, v in pairs(s.cells) do cells[kk] = v end
  cells[k] = (cells[k] or "") .. SIZES[r]
  local stash = {s.stash[1], s.stash[2], s.stash[3]}
  stash[r] = stash[r] - 1
  local t = {cells = cells, stash = stash, placed = s.placed + 1, status = "on",
             players = s.players}
  if t.placed >= 3 and has_line(cells, k) then
    t.status = "won" -- TTD-R5: the placer wins
  elseif stash[1] + stash[2] + stash[3] == 0 then
    t.status = "draw" -- TTD-R6
  elseif t.placed >= 9 and not placements(t, true) then
    -- (with an empty cell in the 3 x 3 frame there is always a place, so
    -- only a frame of nine stacks can block)
    t.status = "won" -- TTD-R7/R9: nobody can move; the last placer wins
  end
  return t
end

function game.result(s)
  if s.status == "on" then return nil end
  local r = {}
  local winner = (s.placed - 1) % s.players
  for p = 0, s.players - 1 do
    if s.status == "draw" then r[p + 1] = 0.5
    elseif p == winner then r[p + 1] = 1
    else r[p + 1] = 0 end
  end
  return r
end

function game.render(s)
  if s.placed == 0 then return "(empty grid)" end
  local minx, maxx, miny, maxy = bbox(s.cells)
  local lines = {}
  for y = maxy, miny, -1 do
    local row = {}
    for x = minx, maxx do
      row[#row + 1] = string.format("%-4s", s.cells[key_of(x, y)] or ".")
    end
    lines[#lines + 1] = string.format("%3d  ", y) .. table.concat(row)
  end
  lines[#lines + 1] = string.format("stash S%d M%d L%d, %d placed",
                                    s.stash[1], s.stash[2], s.stash[3], s.placed)
  return table.concat(lines, "\n")
end

-- Equal positions have equal texts already; key() enables the solver.
function game.key(s)
  local parts = {}
  for k, v in pairs(s.cells) do parts[#parts + 1] = string.format("%d:%s", k, v) end
  table.sort(parts)
  return table.concat(parts, " ") .. "|" .. s.players
end

-- The solver's symmetry classes: the grid's 8 rotations and reflections,
-- each shifted so the pieces' box starts at 0,0 (the rules see only where
-- pieces lie relative to each other), and of those the one whose sorted
-- cell list reads least. A new table; s is left alone.
function game.canonical(s)
  local best, best_text
  for sym = 0, 7 do
    local moved, minx, miny = {}, 99, 99
    for k, v in pairs(s.cells) do
      local x, y = coords(k)
      if sym & 1 ~= 0 then x = -x end
      if sym & 2 ~= 0 then y = -y end
      if sym & 4 ~= 0 then x, y = y, x end
      moved[#moved + 1] = {x, y, v}
      if x < minx then minx = x end
      if y < miny then miny = y end
    end
    local cells, parts = {}, {}
    for i, m in ipairs(moved) do
      local k = key_of(m[1] - minx, m[2] - miny)
      cells[k] = m[3]
      parts[i] = k .. ":" .. m[3]
    end
    table.sort(parts)
    local text = table.concat(parts, " ")
    if not best_text or text < best_text then best, best_text = cells, text end
  end
  return {cells = best, stash = {s.stash[1], s.stash[2], s.stash[3]}, placed = s.placed,
          status = s.status, players = s.players}
end

function game.view(s)
  local cells = {}
  local minx, _, miny = bbox(s.cells)
  for k, v in pairs(s.cells) do
    local x, y = coords(k)
    local stack = {}
    for i = 1, #v do stack[i] = v:sub(i, i) end
    cells[#cells + 1] = {x = x - (minx or 0), y = y - (miny or 0), stack = stack}
  end
  table.sort(cells, function(a, b) return a.y < b.y or (a.y == b.y and a.x < b.x) end)
  return {kind = "grid", width = 3, height = 3, cells = cells}
end

return game
