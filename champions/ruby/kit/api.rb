# The API of "La loi du plus riche" (Prologin 2009 final), Ruby kit.
#
# Same names and values as the 2009 API, as top-level methods and constants (as the 2009
# Ruby kit had them): a champion (prologin.rb) defines, at top level, any of the callbacks
# init_game, jouer, enchere, placement, end_game; run.rb loads it and speaks protocol.md
# with the referee. puts goes to stderr (the log). Rules and error codes: docs/rules.md
# (rule N, section 6).
#
# Owns: the protocol streams, the state cache (one `etat` per callback and after each
# successful action) and the local argument checks.

require_relative 'constants'

module ProloginKit
  CALLBACKS = %w[init_game jouer enchere placement end_game].freeze

  @in = nil
  @out = nil
  @callback = '(none)'
  @dirty = true
  @figures = Array.new(16, 0)
  @kinds = @owners = @monuments = @values = ''

  class << self
    attr_accessor :dirty
    attr_reader :kinds, :owners, :monuments, :values

    # The conversation with the referee broke down: say so and exit at once (exit!, so
    # that no `rescue` or `ensure` of the champion's can swallow it).
    def fail(message)
      $stdout.flush
      $stderr.write("prologin kit (Ruby): error in #{@callback}: #{message}\n")
      $stderr.flush
      exit!(2)
    end

    def connect(proto_in, proto_out)
      @in = proto_in
      @out = proto_out
    end

    def send_line(text)
      @out.write(text)
      @out.flush
    rescue SystemCallError, IOError => e
      fail("writing to the referee: #{e.message}")
    end

    def read_line
      line = @in.gets
      line&.chomp
    rescue SystemCallError, IOError => e
      fail("reading from the referee: #{e.message}")
    end

    def expect_line(what)
      line = read_line
      fail("the referee closed the connection while we waited for `#{what}`") if line.nil?
      line
    end

    # An argument as the wire's signed 32-bit integer (the API's `int`): clamping keeps
    # every answer (a coordinate stays off the map, a bid unaffordable or negative).
    def arg(v)
      v = Integer(v)
      v < -2_147_483_648 ? -2_147_483_648 : (v > 2_147_483_647 ? 2_147_483_647 : v)
    end

    def ask(name, *args)
      send_line(([name] + args.map { |a| arg(a) }).join(' ') << "\n")
      line = expect_line(name)
      fail("unparsable answer `#{line[0, 60]}` to `#{name}`: expected an integer") unless line.match?(/\A-?[0-9]+\z/)
      line.to_i
    end

    def act(name, *args)
      r = ask(name, *args)
      @dirty = true if r == SUCCES
      r
    end

    def refresh
      send_line("etat\n")
      fields = expect_line('etat').split(' ')
      if fields.length != 20 || fields[16, 4].any? { |f| f.length != 10_000 }
        fail('unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters')
      end
      unless fields[0, 16].all? { |f| f.match?(/\A-?[0-9]+\z/) }
        fail('unparsable answer to `etat`: a figure is not an integer')
      end
      @figures = fields[0, 16].map(&:to_i)
      @kinds, @owners, @monuments, @values = fields[16, 4]
      @dirty = false
      return unless @rules
      @board.call(@kinds, @owners)
      @construction = @route = nil
    end

    # The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
    # (c/kit/prologin_rules_lib.c), in the shared library scripts/build-champions.sh builds
    # in the C kit (libprologin_rules.so: $PROLOGIN_KITS/c, /kits/c in the jail; or the
    # file PROLOGIN_RULES_LIB names), called through fiddle. The board is given to it at
    # each fill of the cache; the first construction_possible or route_possible after that
    # fetches every cell's two answers at once, so that a call is an array read. Without
    # the library, each of the three calls is a round trip, said once on stderr.
    def load_rules
      path = ENV['PROLOGIN_RULES_LIB'].to_s
      kits = ENV['PROLOGIN_KITS'].to_s
      path = File.join(kits, 'c', 'libprologin_rules.so') if path.empty? && !kits.empty?
      path = File.expand_path('../../c/kit/libprologin_rules.so', __dir__) if path.empty?
      require 'fiddle'
      lib = Fiddle.dlopen(path)
      void = Fiddle::TYPE_VOID
      int = Fiddle::TYPE_INT
      ptr = Fiddle::TYPE_VOIDP
      @board = Fiddle::Function.new(lib['prologin_rules_board'], [ptr, ptr], void)
      @tables = Fiddle::Function.new(lib['prologin_rules_tables'], [ptr, ptr], void)
      @distance = Fiddle::Function.new(lib['prologin_rules_distance'], [int] * 4, int)
      @rules = true
    rescue LoadError, Fiddle::DLError => e
      $stderr.puts("prologin kit (Ruby): no rules library (#{e.message}): construction_possible, " \
                   'route_possible and distance ask the referee, a round trip each ' \
                   '(build it: scripts/build-champions.sh)')
      @rules = false
    end

    attr_reader :rules

    def rule_distance(x1, y1, x2, y2)
      refresh if @dirty
      @distance.call(arg(x1), arg(y1), arg(x2), arg(y2))
    end

    # construction_possible (table 0) or route_possible (table 1) of cell (x, y).
    def rule_cell(table, x, y)
      return HORS_TERRAIN unless x.is_a?(Integer) && y.is_a?(Integer) && x >= 0 && x < 100 && y >= 0 && y < 100
      refresh if @dirty
      unless @construction
        construction = "\0".b * 10_000
        route = "\0".b * 10_000
        @tables.call(construction, route)
        @construction = construction.unpack('c*')
        @route = route.unpack('c*')
      end
      (table.zero? ? @construction : @route)[y * 100 + x]
    end

    def figure(i)
      refresh if @dirty
      @figures[i]
    end

    # The index of cell (x, y) in the cached strings, or nil off the map.
    def cell(x, y)
      return nil unless x.is_a?(Integer) && y.is_a?(Integer) && x >= 0 && x < 100 && y >= 0 && y < 100
      refresh if @dirty
      y * 100 + x
    end

    def serve(main)
      load_rules
      ended = false
      while (name = read_line)
        fail("unknown callback `#{name[0, 60]}` from the referee") unless CALLBACKS.include?(name)
        @callback = name
        ended = name == 'end_game'
        @dirty = true
        main.send(name) if main.respond_to?(name, true)
        $stdout.flush
        send_line("fin\n")
      end
      return 0 if ended
      $stderr.puts('prologin kit (Ruby): the referee closed the connection before end_game')
      1
    end
  end
end

# Information functions.

def type_case(x, y)
  i = ProloginKit.cell(x, y)
  i ? ProloginKit.kinds.getbyte(i) - 48 : HORS_TERRAIN
end

def valeur_case(x, y)
  i = ProloginKit.cell(x, y)
  i ? ProloginKit.values.getbyte(i) - 64 : HORS_TERRAIN
end

def appartenance(x, y)
  i = ProloginKit.cell(x, y)
  i ? ProloginKit.owners.getbyte(i) - 48 : HORS_TERRAIN
end

def type_monument(x, y)
  i = ProloginKit.cell(x, y)
  return HORS_TERRAIN unless i
  c = ProloginKit.monuments.getbyte(i)
  c == 46 ? PAS_DE_MONUMENT : c - 97 # '.' or 'a' + id
end

def portee_monument(num_monument)
  (0...MAX_MONUMENTS).cover?(num_monument) ? ProloginKit::PORTEE[num_monument] : PAS_DE_MONUMENT
end

def prestige_monument(num_monument)
  (0...MAX_MONUMENTS).cover?(num_monument) ? ProloginKit::PRESTIGE[num_monument] : PAS_DE_MONUMENT
end

def numero_tour
  ProloginKit.figure(0)
end

def commence
  ProloginKit.figure(2)
end

def montant_encheres(num_joueur)
  (0..2).cover?(num_joueur) ? ProloginKit.figure(13 + num_joueur) : JOUEUR_INCORRECT
end

def vainqueur_encheres
  ProloginKit.figure(4)
end

# The player's houses' worth, money excluded: not the final score (rule 9).
def score(num_joueur)
  (0..2).cover?(num_joueur) ? ProloginKit.figure(10 + num_joueur) : JOUEUR_INCORRECT
end

def finances(num_joueur)
  (0..2).cover?(num_joueur) ? ProloginKit.figure(7 + num_joueur) : JOUEUR_INCORRECT
end

def monument_en_cours
  ProloginKit.figure(3)
end

def distance(x1, y1, x2, y2)
  return ProloginKit.ask('distance', x1, y1, x2, y2) unless ProloginKit.rules
  ProloginKit.rule_distance(x1, y1, x2, y2)
end

def route_possible(x, y)
  return ProloginKit.ask('route_possible', x, y) unless ProloginKit.rules
  ProloginKit.rule_cell(1, x, y)
end

def construction_possible(x, y)
  return ProloginKit.ask('construction_possible', x, y) unless ProloginKit.rules
  ProloginKit.rule_cell(0, x, y)
end

def cout_achat_maison
  ProloginKit.figure(5)
end

def cout_achat_route
  ProloginKit.figure(6)
end

# 1 in your own turn, else 0 (rule 16).
def mon_tour
  ProloginKit.figure(1)
end

# Actions.

def construire_route(x, y)
  ProloginKit.act('construire_route', x, y)
end

def construire_maison(x, y)
  ProloginKit.act('construire_maison', x, y)
end

def reserver_case(x, y)
  ProloginKit.act('reserver_case', x, y)
end

def detruire_maison(x, y)
  ProloginKit.act('detruire_maison', x, y)
end

def vendre_maison(x, y)
  ProloginKit.act('vendre_maison', x, y)
end

def encherir(montant)
  ProloginKit.act('encherir', montant)
end

def construire_monument(x, y)
  ProloginKit.act('construire_monument', x, y)
end
