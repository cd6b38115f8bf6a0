// sample: a C# champion that plays sensibly: roads and houses near the town hall, a bid
// on a good monument, the monument placed among its own houses (a bad one among the
// others'). Random choices are seeded from PROLOGIN_SEED: a match replays identically.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Prologin
{
    class Prologin
    {
        const int Centre = Api.TAILLE_CARTE / 2; // the town hall's road, (50, 50)
        long state = 1;

        /// Park-Miller: the same sequence in every kit's sample.
        int Rand(int n)
        {
            state = state * 48271 % 2147483647;
            return (int)(state % n);
        }

        class Cell
        {
            public int X, Y, Gain;
            public int Near { get { return Math.Abs(X - Centre) + Math.Abs(Y - Centre); } }
            public int Index { get { return Y * Api.TAILLE_CARTE + X; } }
        }

        /// Empty cells with a road among their 4 (or 8) neighbours, row after row.
        static List<Cell> Candidates(bool diagonals)
        {
            var found = new List<Cell>();
            for (int y = 0; y < Api.TAILLE_CARTE; y++)
                for (int x = 0; x < Api.TAILLE_CARTE; x++)
                {
                    if (Api.TypeCase(x, y) != Api.VIDE) continue;
                    bool road = false;
                    for (int dy = -1; dy <= 1 && !road; dy++)
                        for (int dx = -1; dx <= 1 && !road; dx++)
                        {
                            if ((dx == 0 && dy == 0) || (!diagonals && dx != 0 && dy != 0)) continue;
                            road = Api.TypeCase(x + dx, y + dy) == Api.ROUTE;
                        }
                    if (road) found.Add(new Cell { X = x, Y = y });
                }
            return found;
        }

        public void InitGame()
        {
            string seed = Environment.GetEnvironmentVariable("PROLOGIN_SEED");
            if (string.IsNullOrEmpty(seed)) seed = "1";
            seed = seed.Substring(Math.Max(0, seed.Length - 9));
            state = long.Parse(seed) % 2147483646 + 1;
            Console.WriteLine("sample (C#): first player " + Api.Commence());
        }

        public void Jouer()
        {
            if (Api.MonTour() == 0) return;
            var roads = Candidates(false).OrderBy(c => c.Near).ThenBy(c => c.Index).ToList();
            if (roads.Count > 0 && Api.CoutAchatRoute() <= Api.Finances(0))
            {
                Cell c = roads[Rand(Math.Min(4, roads.Count))];
                Api.ConstruireRoute(c.X, c.Y);
            }
            for (int built = 0; built < 2 && Api.CoutAchatMaison() <= Api.Finances(0); built++)
            {
                var houses = Candidates(true).OrderBy(c => -Api.ValeurCase(c.X, c.Y))
                    .ThenBy(c => c.Near).ThenBy(c => c.Index).Take(3).ToList();
                if (!houses.Any(c => Api.ConstruireMaison(c.X, c.Y) == Api.SUCCES)) break;
            }
        }

        public void Enchere()
        {
            int m = Api.MonumentEnCours();
            if (m == Api.PAS_DE_MONUMENT || Api.PrestigeMonument(m) <= 0) return;
            int bid = Math.Min(Api.Finances(0), Api.PrestigeMonument(m) - 1 + Rand(2));
            if (bid > 0) Api.Encherir(bid);
        }

        public void Placement()
        {
            int m = Api.MonumentEnCours();
            int r = Api.PorteeMonument(m);
            int sign = Api.PrestigeMonument(m) >= 0 ? 1 : -1;
            var cells = Candidates(true);
            // Our houses in range count for a good monument, the others' for a bad one.
            foreach (Cell c in cells)
                for (int dy = -r; dy <= r; dy++)
                    for (int dx = -r; dx <= r; dx++)
                    {
                        if (Api.TypeCase(c.X + dx, c.Y + dy) != Api.MAISON) continue;
                        c.Gain += Api.Appartenance(c.X + dx, c.Y + dy) == 0 ? sign : -sign;
                    }
            var best = cells.OrderBy(c => -c.Gain).ThenBy(c => c.Near).ThenBy(c => c.Index).Take(10).ToList();
            foreach (Cell c in best)
                if (Api.ConstruireMonument(c.X, c.Y) == Api.SUCCES) return;
        }

        public void EndGame()
        {
            Console.WriteLine("sample (C#) end: money " + Api.Finances(0) + " houses " + Api.Score(0));
        }
    }
}
