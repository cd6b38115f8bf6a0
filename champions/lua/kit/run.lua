-- run.lua -- runs a Lua champion under the protocol of protocol.md.
--
-- Usage: lua5.4 run.lua path/to/prologin.lua, started by the champion's launcher with
-- the protocol on descriptors 3 (the referee's lines) and 4 (our requests), fd 0 on
-- /dev/null and fd 1 on stderr, so that print() and io.write() go to the log (and a
-- program the champion starts writes its output there too).
-- Loads the kit (this folder) and the champion file, whose global functions init_game,
-- jouer, enchere, placement and end_game are the callbacks, then serves them.
local path = arg[1]
if not path then
  io.stderr:write("usage: run.lua path/to/prologin.lua\n")
  os.exit(2)
end
local here = (arg[0]:match("^(.*)/[^/]*$") or ".")
local folder = (path:match("^(.*)/[^/]*$") or ".")
package.path = here .. "/?.lua;" .. folder .. "/?.lua;" .. package.path

-- The protocol: the launcher's descriptors 3 and 4. Lua cannot use a descriptor by its
-- number, and a jailed champion may not reopen a pipe through /proc, so two `cat`
-- relays carry the lines; each closes the other descriptor, so that the referee sees
-- our stdout close when we exit.
local input = io.popen("exec cat <&3 4>&-", "r")
local output = io.popen("exec cat >&4 3<&-", "w")
if not input or not output then
  io.stderr:write("prologin kit (Lua): cannot start the protocol relays (cat)\n")
  os.exit(2)
end
output:setvbuf("full")

local kit = require("api")
require("prologin_table") -- the 2009 form: prologin.type_case(x, y), ...
local chunk, err = loadfile(path)
if not chunk then
  io.stderr:write("prologin kit (Lua): " .. tostring(err) .. "\n")
  os.exit(1, false)
end
-- An error in the file's own code is a crash at once, as one in a callback (api.lua).
kit.protected("loading " .. path, chunk)
os.exit(kit.serve(input, output), false)
