# Runs a Ruby champion under the protocol of protocol.md.
#
# Usage: ruby run.rb path/to/prologin.rb
#
# Keeps the referee's pipes on private descriptors, points fd 1 at stderr and fd 0 at
# /dev/null (so the champion's puts goes to the log), loads the kit (api.rb) and the
# champion with its folder on the load path (`require 'constants.rb'` of 2009 works too),
# and serves its callbacks: top-level defs, or the methods of a `class Prologin` (2009).

if ARGV.length != 1
  warn 'usage: ruby run.rb path/to/prologin.rb'
  exit 2
end
proto_in = $stdin.dup
proto_out = $stdout.dup
proto_in.binmode
proto_out.binmode
$stdin.reopen(File::NULL)
$stdout.reopen($stderr)
$stdout.sync = true

here = __dir__
file = File.expand_path(ARGV[0])
$LOAD_PATH.unshift(here, File.dirname(file))
require_relative 'api'
ProloginKit.connect(proto_in, proto_out)
load file
# The 2009 form: the callbacks are the methods of the skeleton's `class Prologin`, of one
# instance made once before init_game, as the 2009 interface did (`game = Prologin.new`).
# Today's form: top-level defs.
champion = defined?(::Prologin) && ::Prologin.is_a?(Class) ? ::Prologin.new : self
exit ProloginKit.serve(champion)
