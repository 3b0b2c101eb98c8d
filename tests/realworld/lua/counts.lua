-- counts.lua N: a deterministic Lua workload whose calls into Lua's C library are
-- known from its own logic.  The realworld test (t-lua.py) derives the expected
-- count of each C function below from N alone, except math_abs, whose count the
-- script tallies itself (two math.abs per sort comparison) and prints.
--
--   str_format      N                 string.format once per iteration
--   luaB_pcall      N + (D + 1) * R + C * (Y // 2)
--                                     one per iteration, D + 1 per nested descent,
--                                     one around every even-numbered yield
--   luaB_error      ceil(N/2) + (D + 1) * R
--   luaB_cocreate   C                 coroutine.create
--   luaB_coresume   C * (Y + 1)       Y yields, then the resume that finishes it
--   luaB_yield      C * Y             (the even-numbered ones from inside a pcall)
--   sort            S                 table.sort
--   math_abs        2 * compares      the comparator calls math.abs twice per call;
--                                     compares is printed
--
-- with D = 40, R = N // 50, C = N // 20, Y = 7, S = N // 25.  No other code in this
-- script or in lua.c's start-up calls these library functions.

local N = math.tointeger(tonumber(arg[1])) or 1000
local D, R, C, Y, S = 40, N // 50, N // 20, 7, N // 25

local lines, fails = {}, 0
for i = 1, N do
  lines[#lines + 1] = string.format("%d:%05.1f", i, i / 3)
  local ok = pcall(function(k)
    if k % 2 == 1 then error("odd " .. k) end
    return k
  end, i)
  if not ok then fails = fails + 1 end
end

-- An error raised at the bottom of D nested pcalls, re-raised at every level:
-- each level unwinds the C stack of a protected call (longjmp).
local function descend(d)
  if d == 0 then error("bottom", 0) end
  local ok, e = pcall(descend, d - 1)
  if not ok then error(e .. "<", 0) end
end
local depth_msg
for _ = 1, R do
  local _, e = pcall(descend, D)
  depth_msg = e
end

-- Coroutines: each yields Y values, every other yield from inside a pcall.
local yielded = 0
for c = 1, C do
  local co = coroutine.create(function(base)
    for k = 1, Y do
      if k % 2 == 0 then
        pcall(function() coroutine.yield(base + k) end)
      else
        coroutine.yield(base + k)
      end
    end
    return "done"
  end)
  local ok, v = coroutine.resume(co, c)
  while coroutine.status(co) == "suspended" do
    yielded = yielded + v
    ok, v = coroutine.resume(co)
  end
  assert(ok and v == "done")
end

-- Sorting with a Lua comparator that calls back into C (math.abs) each time.
local compares = 0
local function by_distance(a, b)
  compares = compares + 1
  local da, db = math.abs(a - 500), math.abs(b - 500)   -- two calls per comparison
  if da ~= db then return da < db end
  return a < b
end
local seed, first = 12345, 0
for s = 1, S do
  local t = {}
  for k = 1, 20 + s % 13 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    t[k] = seed % 1000
  end
  table.sort(t, by_distance)
  first = first + t[1]
end

print("iterations", N, "failures", fails)
print("last line", lines[#lines])
print("descents", R, "message length", depth_msg and #depth_msg or 0)
print("coroutines", C, "yielded sum", yielded)
print("sorts", S, "first sum", first)
print("compares", compares)
