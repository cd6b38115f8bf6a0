// template: a C# champion that does nothing, validly. Copy this folder, write the
// callbacks, `make`. The API: static methods of Prologin.Api (Api.TypeCase(x, y),
// Api.ConstruireRoute(x, y), ...) and its constants (Api.SUCCES, Api.ROUTE, ...),
// docs/rules.md section 6. Console.WriteLine goes to your log (stderr), never to the
// referee.
using System;

namespace Prologin
{
    class Prologin
    {
        public void InitGame()
        {
            // Once, before turn 1 (10 s of CPU, mono's start-up included).
        }

        public void Jouer()
        {
            // Phase I of every turn 1..15: build roads and houses when Api.MonTour() == 1.
        }

        public void Enchere()
        {
            // Phase II of turns 1..14: Api.Encherir(montant) for Api.MonumentEnCours().
        }

        public void Placement()
        {
            // Phase III, if you won the auction: Api.ConstruireMonument(x, y).
        }

        public void EndGame()
        {
            // Once, after turn 15: the final board, for your log.
        }
    }
}
