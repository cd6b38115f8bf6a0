-- sample: a Lua champion that plays sensibly near the town hall (50, 50): a free road,
-- houses on the best cells next to the roads, a bid worth the monument's prestige, and
-- the monument placed where it helps its own houses most (or hurts the others' most).
-- Deterministic: it needs no random numbers.

local HALL = 50
local REACH = 15 -- only the cells within 15 of the town hall are considered

local function near_road(x, y, diagonals)
  for dy = -1, 1 do
    for dx = -1, 1 do
      if (dx ~= 0 or dy ~= 0) and (diagonals or dx == 0 or dy == 0)
        and type_case(x + dx, y + dy) == ROUTE then
        return true
      end
    end
  end
  return false
end

-- Empty cells next to a road near the hall, best first by `worth` (then nearest the hall).
local function candidates(diagonals, worth)
  local found = {}
  for y = HALL - REACH, HALL + REACH do
    for x = HALL - REACH, HALL + REACH do
      if type_case(x, y) == VIDE and near_road(x, y, diagonals) then
        found[#found + 1] = { x = x, y = y, w = worth(x, y),
          d = math.abs(x - HALL) + math.abs(y - HALL) }
      end
    end
  end
  table.sort(found, function(a, b)
    if a.w ~= b.w then return a.w > b.w end
    if a.d ~= b.d then return a.d < b.d end
    if a.y ~= b.y then return a.y < b.y end
    return a.x < b.x
  end)
  return found
end

-- Builds on the first of the best cells that accepts it (at most 5 tries).
local function build_best(build, diagonals, worth)
  for i, c in ipairs(candidates(diagonals, worth)) do
    if i > 5 then break end
    if build(c.x, c.y) == SUCCES then return true end
  end
  return false
end

local function nowhere() return 0 end

function init_game()
  print("sample (Lua): first player is " .. commence())
end

function jouer()
  if not mon_tour() then return end
  if cout_achat_route() <= finances(0) then build_best(construire_route, false, nowhere) end
  for _ = 1, 2 do
    if cout_achat_maison() > finances(0) then break end
    if not build_best(construire_maison, true, valeur_case) then break end
  end
  -- The second house brings a free road: take it.
  if cout_achat_route() == 0 then build_best(construire_route, false, nowhere) end
end

function enchere()
  if not mon_tour() then return end
  local prestige = prestige_monument(monument_en_cours())
  if prestige > 0 then
    encherir(math.min(prestige, finances(0) // 3))
  end
end

function placement()
  if not mon_tour() then return end
  local id = monument_en_cours()
  local prestige, range = prestige_monument(id), portee_monument(id)
  -- Its own houses in range count for it, the others' against (the other way round for
  -- a monument of negative prestige).
  local function worth(x, y)
    local w = 0
    for dy = -range, range do
      for dx = -range, range do
        if type_case(x + dx, y + dy) == MAISON then
          w = w + (appartenance(x + dx, y + dy) == 0 and 1 or -1)
        end
      end
    end
    return prestige >= 0 and w or -w
  end
  build_best(construire_monument, true, worth)
end

function end_game()
  print(string.format("sample (Lua) end: money %d worth %d", finances(0), score(0)))
end
