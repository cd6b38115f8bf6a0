# sample: a Ruby champion that plays sensibly: roads and houses near the town hall, a bid
# on a good monument, the monument placed among its own houses (a bad one among the
# others'). Random choices are seeded from PROLOGIN_SEED: a match replays identically.

CENTRE = TAILLE_CARTE / 2 # the town hall's road, (50, 50)
$state = 1

# Park-Miller: the same sequence in every kit's sample.
def rand_below(n)
  $state = $state * 48_271 % 2_147_483_647
  $state % n
end

def near(x, y)
  (x - CENTRE).abs + (y - CENTRE).abs
end

# Empty cells [x, y] with a road among their 4 (or 8) neighbours, row after row.
def candidates(diagonals)
  found = []
  TAILLE_CARTE.times do |y|
    TAILLE_CARTE.times do |x|
      next unless type_case(x, y) == VIDE
      road = false
      (-1..1).each do |dy|
        (-1..1).each do |dx|
          next if (dx.zero? && dy.zero?) || (!diagonals && dx != 0 && dy != 0)
          road ||= type_case(x + dx, y + dy) == ROUTE
        end
      end
      found << [x, y] if road
    end
  end
  found
end

def init_game
  seed = ENV['PROLOGIN_SEED'] || '1'
  seed = seed[-9, 9] if seed.length > 9
  $state = seed.to_i % 2_147_483_646 + 1
  puts "sample (Ruby): first player #{commence}"
end

def jouer
  return if mon_tour.zero?
  roads = candidates(false).sort_by { |x, y| [near(x, y), y * TAILLE_CARTE + x] }
  if !roads.empty? && cout_achat_route <= finances(0)
    x, y = roads[rand_below([4, roads.length].min)]
    construire_route(x, y)
  end
  2.times do
    break if cout_achat_maison > finances(0)
    houses = candidates(true).sort_by { |x, y| [-valeur_case(x, y), near(x, y), y * TAILLE_CARTE + x] }
    break unless houses.first(3).any? { |x, y| construire_maison(x, y) == SUCCES }
  end
end

def enchere
  m = monument_en_cours
  return if m == PAS_DE_MONUMENT || prestige_monument(m) <= 0
  bid = [finances(0), prestige_monument(m) - 1 + rand_below(2)].min
  encherir(bid) if bid > 0
end

def placement
  m = monument_en_cours
  r = portee_monument(m)
  sign = prestige_monument(m) >= 0 ? 1 : -1
  # Our houses in range count for a good monument, the others' for a bad one.
  gain = lambda do |x, y|
    g = 0
    (-r..r).each do |dy|
      (-r..r).each do |dx|
        next unless type_case(x + dx, y + dy) == MAISON
        g += appartenance(x + dx, y + dy).zero? ? sign : -sign
      end
    end
    g
  end
  cells = candidates(true).sort_by { |x, y| [-gain.call(x, y), near(x, y), y * TAILLE_CARTE + x] }
  cells.first(10).any? { |x, y| construire_monument(x, y) == SUCCES }
end

def end_game
  puts "sample (Ruby) end: money #{finances(0)} houses #{score(0)}"
end
