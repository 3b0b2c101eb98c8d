-- loop.lua N: interpreter work with no calls into C, for the samples' line view of
-- luaV_execute (t-lua.py): integer and float arithmetic, table reads and writes,
-- and comparisons in a loop of N iterations.  Prints one checksum line:
-- "loop N CHECKSUM" (deterministic).
local N = math.tointeger(tonumber(arg[1])) or 1000000
local t = {}
for i = 1, 64 do t[i] = i end
local acc, f = 0, 0.5
for i = 1, N do
  local k = (i % 64) + 1
  local v = t[k]
  acc = (acc + v * k) % 1000003
  f = f * 1.0000001 + v / 7
  if acc > 500000 then acc = acc - (k * 3 + 1) end
  t[k] = (v + i) % 997
end
print(string.format("loop %d %d %.3f", N, acc, f % 1000))
